/**
 * The real, compiled worker entry point (`dist/worker/main.js`, as `npm run worker` and the image
 * run it, with the prebuilt workflow bundle; `npm test` builds first) as a separate OS process, for tests that use
 * the CLI against it or kill it with SIGKILL. It runs in its own process group so that killing the
 * group also takes its MCP children.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpServerConfig } from '../../src/mcp/config';
import { REPO_ROOT } from './repo';
import { TEST_API_KEY } from './test-worker';

/** A worker process. */
export interface WorkerProcess {
  pid: number;
  output: string[];
  /** SIGKILL to the worker alone: its MCP children are orphaned, as in a real crash. */
  kill9(): void;
  /** SIGKILL to the worker's whole process group: the worker and its MCP children die together. */
  kill9Group(): void;
  /** SIGTERM and wait for exit (then SIGKILL of the whole group if needed). */
  stop(): Promise<void>;
  exited: Promise<number | null>;
}

/** Writes an mcp.json for `servers` (with their tool approval settings) in a temp dir and returns its path. */
export function writeMcpConfig(servers: McpServerConfig[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-config-'));
  const mcpServers = Object.fromEntries(
    servers.map((s) => {
      const timeout = s.timeoutMs ? { timeoutMs: s.timeoutMs } : {};
      const approval = { ...(s.approval ? { approval: s.approval } : {}), ...(s.toolApproval ? { toolApproval: s.toolApproval } : {}) };
      if (s.transport !== 'stdio') return [s.name, { type: s.transport, url: s.url, headers: s.headers, ...timeout, ...approval }];
      return [s.name, { command: s.command, args: s.args, env: s.env, ...(s.cwd ? { cwd: s.cwd } : {}), ...timeout, ...approval }];
    }),
  );
  const file = path.join(dir, 'mcp.json');
  fs.writeFileSync(file, JSON.stringify({ mcpServers }, null, 2));
  return file;
}

/** Spawns the worker and resolves once it says it is running. */
export async function spawnWorkerProcess(options: {
  address: string;
  taskQueue: string;
  mcpConfigPath: string;
  claudeBaseUrl: string;
  /** More environment for the worker (e.g. TEMPORAL_* connection settings). */
  env?: Record<string, string>;
  /** The tree whose compiled worker runs (default this repo; the chaos suite measures older builds too). */
  root?: string;
}): Promise<WorkerProcess> {
  const root = options.root ?? REPO_ROOT;
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'dist/worker/main.js')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TEMPORAL_ADDRESS: options.address,
      MCP_HOST_TASK_QUEUE: options.taskQueue,
      MCP_CONFIG: options.mcpConfigPath,
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: options.claudeBaseUrl,
      ...options.env,
    },
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString();
      output.push(text);
      if (text.includes('Worker: polling')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`worker exited (${String(code)}) before it ran:\n${output.join('')}`)));
    setTimeout(() => reject(new Error(`worker not running after 60 s:\n${output.join('')}`)), 60_000).unref();
  });
  const pid = child.pid ?? -1;
  const killGroup = (): void => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const worker: WorkerProcess = {
    pid,
    output,
    exited,
    kill9: () => child.kill('SIGKILL'),
    kill9Group: killGroup,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(killGroup, 15_000);
      await exited;
      clearTimeout(timer);
      killGroup();
    },
  };
  try {
    await ready;
  } catch (err) {
    await worker.stop();
    throw err;
  }
  return worker;
}

/** The first match of `pattern` in the worker's output so far, waiting for it up to `timeoutMs`. */
export async function waitForLine(worker: WorkerProcess, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = pattern.exec(worker.output.join(''))?.[0];
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no line matching ${String(pattern)} in:\n${worker.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
