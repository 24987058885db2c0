/**
 * A real Redis server (Debian's `redis-server` package, 7.0 in Debian 12) for the live channel's
 * tests: its own temp dir and a free port on 127.0.0.1, no persistence (no RDB snapshot, no AOF),
 * optionally with a password; stopped and its dir removed by `stop()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../src/temporal/free-port';
import { pollUntil } from './poll-until';
import { stopServerProcess } from './stop-server-process';

/** What the tests need to know to run or skip: `redis-server` on PATH (`.ci/run` installs it). */
export const REDIS = { name: 'redis-server (Debian package)', install: 'apt-get install -y redis-server' };

/** True when the `redis-server` binary runs. */
export function redisInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A running Redis. */
export interface RedisServer {
  /** `redis://[:password@]127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** A client of its own, for the tests' own looks (XLEN, XRANGE, EXISTS). */
  client: Redis;
  /** The server's own output so far (for failures). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts Redis on a free port (with `password`: `requirepass`); resolves once it answers PING. */
export async function startRedis(options: { password?: string } = {}): Promise<RedisServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'];
  if (options.password !== undefined) args.push('--requirepass', options.password);
  const child: ChildProcess = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  child.stdout?.on('data', (d: Buffer) => lines.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => lines.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `redis://${options.password !== undefined ? `:${encodeURIComponent(options.password)}@` : ''}127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  client.on('error', () => undefined);
  const stop = async (): Promise<void> => {
    client.disconnect();
    await stopServerProcess(child, exited, dir);
  };
  try {
    await pollUntil(
      'Redis to answer PING',
      async () => {
        if (client.status !== 'ready') await client.connect().catch(() => undefined);
        return (await client.ping().catch(() => '')) === 'PONG';
      },
      30_000,
    );
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}:\n${lines.join('')}`);
  }
  return { url, port, client, output: () => lines.join(''), stop };
}
