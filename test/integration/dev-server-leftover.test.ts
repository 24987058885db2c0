/**
 * A dev server left running on a data file (src/temporal/dev-server-owner.ts), with the real CLI:
 * - its owner was killed (kill -9, so nothing stopped the server, which runs in a session of its
 *   own): the next start on the same data stops it and starts its own, on the same ports, and the
 *   conversations' data is kept (a namespace registered in the first server is there in the second);
 * - its owner still runs: a second start on the same data is refused, naming the address to use,
 *   even on other ports (two dev servers would share one SQLite file), and the first keeps serving;
 * - a record whose pid is gone, or is not a dev server of this data, is only replaced.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { startDevServer, type DevServer } from '../../src/temporal/dev-server';
import { recordPath } from '../../src/temporal/dev-server-owner';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { freePort } from '../../src/temporal/free-port';
import { running } from '../fixtures/process-tree';
import { REPO_ROOT } from '../support/repo';

/** Registers namespace `name` on the server at `address` (what a conversation's data stands for here). */
async function register(address: string, name: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await connection.workflowService.registerNamespace({ namespace: name, workflowExecutionRetentionPeriod: msToTs('1 day') });
  } finally {
    await connection.close();
  }
}

/** The namespaces the server at `address` knows. */
async function namespaces(address: string): Promise<string[]> {
  const connection = await Connection.connect({ address });
  try {
    const listed = await connection.workflowService.listNamespaces({});
    return listed.namespaces.map((n) => n.namespaceInfo?.name ?? '');
  } finally {
    await connection.close();
  }
}

describe('a dev server left running on the same data', () => {
  const cli = findTemporalCli();
  let dir: string;
  const started: DevServer[] = [];
  const strays: number[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-leftover-'));
  });
  afterEach(async () => {
    for (const server of started.splice(0)) await server.stop();
    for (const pid of strays.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('by an owner killed with SIGKILL: the next start stops it, starts its own on the same ports, and the data stays', async () => {
    if (!cli) throw new Error('no Temporal CLI (npm run setup)');
    const dbFile = path.join(dir, 'temporal.db');
    const [port, uiPort] = [await freePort(), await freePort()];
    const owner = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/dev-server-owner.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, CLI: cli.path, DB_FILE: dbFile, PORT: String(port), UI_PORT: String(uiPort) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const leftPid = await new Promise<number>((resolve, reject) => {
      let out = '';
      owner.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /ready (\d+)/.exec(out);
        if (match?.[1] !== undefined) resolve(Number(match[1]));
      });
      owner.once('exit', (code) => reject(new Error(`the owner exited (${String(code)}) before its server was ready`)));
    });
    strays.push(leftPid);
    await register(`127.0.0.1:${port}`, 'kept-through-the-restart');
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    // Nothing stopped it: it runs on, holding the ports and the data.
    expect(running(leftPid)).toBe(true);
    expect(fs.existsSync(recordPath(dbFile))).toBe(true);

    const lines: string[] = [];
    const server = await startDevServer({ cliPath: cli.path, dbFile, port, uiPort, log: (line) => lines.push(line) });
    started.push(server);
    expect(lines.join('\n')).toContain(`stopping the dev server an earlier start left running on this data (pid ${leftPid}, 127.0.0.1:${port})`);
    expect(running(leftPid)).toBe(false);
    expect(server.pid).not.toBe(leftPid);
    expect(await namespaces(server.address)).toContain('kept-through-the-restart');
    expect(JSON.parse(fs.readFileSync(recordPath(dbFile), 'utf8'))).toEqual({ pid: server.pid, ownerPid: process.pid, address: server.address });
    await server.stop();
    started.pop();
    expect(fs.existsSync(recordPath(dbFile))).toBe(false);
  }, 90_000);

  test('by an owner still running: a second start is refused, on other ports too, and the first keeps serving', async () => {
    if (!cli) throw new Error('no Temporal CLI (npm run setup)');
    const dbFile = path.join(dir, 'temporal.db');
    const first = await startDevServer({ cliPath: cli.path, dbFile, port: await freePort(), uiPort: await freePort(), log: () => undefined });
    started.push(first);
    const second = await startDevServer({ cliPath: cli.path, dbFile, port: await freePort(), uiPort: await freePort(), log: () => undefined }).catch(
      (err: unknown) => err,
    );
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toBe(
      `a Temporal dev server already runs on ${dbFile} (pid ${first.pid}, at ${first.address}), started by process ${process.pid}, ` +
        `which is still running. Use it with TEMPORAL_ADDRESS=${first.address}, or stop that process first.`,
    );
    expect(running(first.pid)).toBe(true);
    expect(await namespaces(first.address)).toContain('default');
  }, 90_000);

  test('a record of a process that is gone, or that is no dev server of this data, is only replaced', async () => {
    if (!cli) throw new Error('no Temporal CLI (npm run setup)');
    const dbFile = path.join(dir, 'temporal.db');
    // A process that is alive but not a dev server (a sleeping shell), with a dead owner.
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    strays.push(sleeper.pid ?? -1);
    for (const pid of [sleeper.pid ?? -1, 2 ** 22 + 1]) {
      fs.writeFileSync(recordPath(dbFile), JSON.stringify({ pid, ownerPid: 2 ** 22 + 3, address: '127.0.0.1:1' }));
      const lines: string[] = [];
      const server = await startDevServer({ cliPath: cli.path, dbFile, port: await freePort(), uiPort: await freePort(), log: (line) => lines.push(line) });
      await server.stop();
      expect(lines.join('\n')).not.toContain('left running');
      expect(fs.existsSync(recordPath(dbFile))).toBe(false);
    }
    expect(running(sleeper.pid ?? -1)).toBe(true);
  }, 90_000);
});
