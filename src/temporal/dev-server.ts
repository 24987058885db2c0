/**
 * Runs `temporal server start-dev` as a child process for `npm start`: SQLite persistence in a
 * file (a restart keeps conversations), the Web UI on, bound to 127.0.0.1, the conversations' search
 * attributes registered. Stopped by PID. A dev server that an earlier start left running on the
 * same data file (its owner killed) is stopped first (`dev-server-owner.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { cliSearchAttribute, PROGRESS_ATTRIBUTES, WAITING_INPUT_ATTRIBUTE } from '../workflows/progress-attributes';
import { DevServerLogFilter } from './dev-server-log';
import { findLeftover, removeRecord, stopOrphan, writeRecord } from './dev-server-owner';
import { devServerTuningArgs } from './server-tuning';

/** Where and how to run the dev server. */
export interface DevServerOptions {
  cliPath: string;
  dbFile: string;
  port: number;
  uiPort: number;
  ip?: string;
  /** A remote codec endpoint for the Web UI (`--ui-codec-endpoint`): `mcp-host codec-server`'s URL. */
  uiCodecEndpoint?: string;
  log?: (line: string) => void;
  /** Aborting while the server starts stops it and rejects (Ctrl-C during `npm start`). */
  signal?: AbortSignal;
}

/** A running dev server. */
export interface DevServer {
  address: string;
  uiUrl: string;
  pid: number;
  stop(): Promise<void>;
}

async function portInUse(ip: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: ip, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** How long ports a stopped leftover server held get to be released before they count as taken. */
const ORPHAN_PORTS_WAIT_MS = 5000;

/** Resolves once no one listens on `ports` any more, or after `waitMs` (the caller then checks them itself). */
async function portsReleased(ip: string, ports: readonly number[], waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  for (const port of ports) {
    while (Date.now() < until && (await portInUse(ip, port))) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The server exited before it answered; `stderr` holds its last lines. */
export class DevServerExitedError extends Error {
  constructor(
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`temporal server start-dev exited with code ${exitCode}${stderr ? `:\n${stderr}` : ' and printed nothing on stderr'}`);
    this.name = 'DevServerExitedError';
  }

  /**
   * The dev server picks free ports for its internal services (history, matching, HTTP, metrics)
   * by asking the OS and then binding later; another process can take one in between. Such a start
   * is worth another try; any other exit is not.
   */
  get lostPortRace(): boolean {
    return /address already in use/i.test(this.stderr);
  }
}

/** How many times a start that lost a port race is tried in all. */
const START_ATTEMPTS = 3;
/** The dev server's whole log, beside its data: `<db file>.log`, written afresh at each start. */
export function devServerLogFile(dbFile: string): string {
  return `${dbFile}.log`;
}

/** Lines of the server's stderr kept for the error of a failed start. */
const STDERR_TAIL_LINES = 20;

async function waitReady(
  address: string,
  child: ChildProcess,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  stderrTail: () => Promise<string>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    if (child.exitCode !== null) throw new DevServerExitedError(child.exitCode, await stderrTail());
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the Temporal dev server did not become ready at ${address}: ${String(err)}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts the dev server and resolves once its frontend answers. A start that died because one of
 * the server's own randomly chosen ports was taken meanwhile is tried again, at most
 * {@link START_ATTEMPTS} times in all.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, log);
    } catch (err) {
      if (!(err instanceof DevServerExitedError && err.lostPortRace) || attempt >= START_ATTEMPTS) throw err;
      log(`[temporal] the dev server lost a race for a free port; starting it again (attempt ${attempt + 1} of ${START_ATTEMPTS})`);
    }
  }
}

async function startOnce(options: DevServerOptions, log: (line: string) => void): Promise<DevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const leftover = findLeftover(options.dbFile);
  if (leftover.kind === 'in-use') {
    throw new Error(
      `a Temporal dev server already runs on ${options.dbFile} (pid ${leftover.pid}, at ${leftover.address}), ` +
        `started by process ${leftover.ownerPid}, which is still running. Use it with TEMPORAL_ADDRESS=${leftover.address}, or stop that process first.`,
    );
  }
  if (leftover.kind === 'orphan') {
    log(`[temporal] stopping the dev server an earlier start left running on this data (pid ${leftover.pid}, ${leftover.address}); its data stays`);
    await stopOrphan(leftover.pid, options.dbFile);
    // Its listeners may outlive its pid for a moment (seen under load): their ports get a few seconds to free up.
    await portsReleased(ip, [options.port, options.uiPort], ORPHAN_PORTS_WAIT_MS);
  }
  for (const port of [options.port, options.uiPort]) {
    if (await portInUse(ip, port)) {
      throw new Error(
        `port ${port} on ${ip} is already in use. Is another Temporal server running? ` +
          `Use it with TEMPORAL_ADDRESS=${ip}:${options.port}, or choose other ports with TEMPORAL_DEV_PORT / TEMPORAL_DEV_UI_PORT.`,
      );
    }
  }
  fs.mkdirSync(path.dirname(options.dbFile), { recursive: true });
  const child = spawn(
    options.cliPath,
    ['server', 'start-dev', '--ip', ip, '--port', String(options.port), '--ui-port', String(options.uiPort),
      '--db-filename', options.dbFile, '--log-level', 'warn',
      ...(options.uiCodecEndpoint !== undefined ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : []),
      // The conversations' search attributes, so the Web UI's list can filter by them (idempotent on restart).
      ...[...PROGRESS_ATTRIBUTES, WAITING_INPUT_ATTRIBUTE].flatMap((key) => ['--search-attribute', cliSearchAttribute(key)]),
      // Failover speed and latency per step (src/temporal/server-tuning.ts).
      ...devServerTuningArgs()],
    // Its own process group: a terminal's Ctrl-C reaches npm start, which stops the worker first
    // and then this server, instead of the server dying under a worker that is still draining.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const address = `${ip}:${options.port}`;
  // Who runs it, for a later start should this process die without stopping it (kill -9).
  if (child.pid !== undefined) writeRecord(options.dbFile, { pid: child.pid, address });
  const forgetRecord = (): void => {
    if (child.pid !== undefined) removeRecord(options.dbFile, child.pid);
  };
  // Should this process end without stop() (an uncaught error), the server it started ends too.
  const killOnExit = (): void => {
    child.kill('SIGTERM');
    forgetRecord();
  };
  process.once('exit', killOnExit);
  let stopping = false;
  const tail: string[] = [];
  // Every line goes to the log file beside the data; the terminal gets what matters (dev-server-log.ts).
  const logFile = devServerLogFile(options.dbFile);
  const logStream = fs.createWriteStream(logFile, { flags: 'w' });
  logStream.on('error', () => undefined); // a full disk must not stop the server's output
  const filter = new DevServerLogFilter();
  let saidWhereRoutineGoes = false;
  const forward = (chunk: Buffer): void => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      logStream.write(`${line}\n`);
      if (stopping) continue; // its shutdown chatter (peers refusing connections) is noise
      tail.push(line);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
      const shown = filter.toTerminal(line);
      if (shown !== undefined) log(`[temporal] ${shown}`);
      else if (!saidWhereRoutineGoes) {
        saidWhereRoutineGoes = true;
        log(`[temporal] routine warnings (slow calls that wait for a turn, large history pages for the Web UI) go only to ${logFile}`);
      }
    }
  };
  child.once('close', () => logStream.end());
  // Its stdout is a banner of addresses this host prints itself; warnings and errors come on stderr.
  child.stdout?.resume();
  child.stderr?.on('data', forward);
  try {
    // Its last words arrive on stderr after it has exited: wait for the pipe to close (bounded).
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const stderrTail = async (): Promise<string> => {
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      return tail.join('\n');
    };
    await waitReady(address, child, 60_000, options.signal, stderrTail);
  } catch (err) {
    stopping = true;
    process.removeListener('exit', killOnExit);
    await stopChild(child);
    forgetRecord();
    throw err;
  }
  const stop = async (): Promise<void> => {
    stopping = true;
    process.removeListener('exit', killOnExit);
    await stopChild(child);
    forgetRecord();
  };
  return { address, uiUrl: `http://${ip}:${options.uiPort}`, pid: child.pid ?? -1, stop };
}
