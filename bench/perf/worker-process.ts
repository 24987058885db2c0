/**
 * A worker of the performance benchmark in its own process, so that its CPU time and memory are
 * its own (the benchmark's client, the fake model and the MCP server run elsewhere): spawned,
 * awaited until it polls, read from /proc, stopped by its pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Which worker, and where it polls. */
export interface WorkerSpec {
  kind: 'host' | 'floor';
  address: string;
  taskQueue: string;
  bundlePath: string;
  /** The host's model endpoint (the fake). */
  claudeUrl?: string;
  /** The host's tool latency. */
  toolMs?: number;
  /** The tree whose src/ the host worker runs (default this one). */
  srcRoot?: string;
  /** The host's MCP server is marked `fast: true`: its tool calls run as local activities. */
  fastTools?: boolean;
}

/** A running worker process. */
export interface WorkerProcess {
  readonly pid: number;
  /** User + system CPU seconds so far. */
  cpuSeconds(): number;
  /** Resident memory now and its peak so far, in bytes. */
  memory(): { rss: number; peak: number };
  stop(): Promise<void>;
}

function statusField(pid: number, field: string): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th overall.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function commandOf(spec: WorkerSpec): string[] {
  return spec.kind === 'floor'
    ? [...(process.env.BENCH_FLOOR_NODE_ARGS?.split(' ').filter(Boolean) ?? []), path.join(REPO_ROOT, 'bench/perf/floor-worker.cjs')]
    : [...(process.env.BENCH_HOST_NODE_ARGS?.split(' ').filter(Boolean) ?? []), path.join(REPO_ROOT, 'bench/perf/host-worker.cjs')];
}

/** How long a worker may take to start polling (they take 1–3 s here, more on a loaded machine). */
const READY_TIMEOUT_MS = 60_000;

/** Starts a worker and resolves once it polls. */
export async function startWorker(spec: WorkerSpec): Promise<WorkerProcess> {
  const child: ChildProcess = spawn(process.execPath, commandOf(spec), {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BENCH_ADDRESS: spec.address,
      BENCH_TASK_QUEUE: spec.taskQueue,
      BENCH_BUNDLE: spec.bundlePath,
      BENCH_CLAUDE_URL: spec.claudeUrl ?? '',
      BENCH_TOOL_MS: String(spec.toolMs ?? 0),
      BENCH_SRC_ROOT: spec.srcRoot ?? '',
      BENCH_FAST_TOOLS: spec.fastTools === true ? '1' : '',
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    // A worker that neither polls nor exits (seen once: the benchmark waited 10 minutes, silent)
    // fails the run with what it printed.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${spec.kind} worker was not ready after ${READY_TIMEOUT_MS / 1000} s:\n${stderr}`));
    }, READY_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${spec.kind} worker exited (${String(code)}) before it was ready:\n${stderr}`));
    });
  });
  const pid = child.pid ?? 0;
  return {
    pid,
    cpuSeconds: () => cpuTicks(pid) / TICKS_PER_SECOND,
    memory: () => ({ rss: statusField(pid, 'VmRSS'), peak: statusField(pid, 'VmHWM') }),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
