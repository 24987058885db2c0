/**
 * A worker of the performance benchmark in its own process, so that its CPU time and memory are
 * its own (the benchmark's client, the fake model and the MCP server run elsewhere): spawned,
 * awaited until it polls, read from /proc, stopped by its pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { freePort } from '../../src/temporal/free-port';
import { childrenCpuSeconds, cpuSeconds, statusBytes } from './proc-stats';

const REPO_ROOT = path.resolve(__dirname, '../..');

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
  /** The host traces, sending its spans by OTLP/HTTP to this base URL (src/telemetry/tracing.ts). */
  tracesUrl?: string;
  /** More environment for the worker, e.g. a design's settings (`MCP_HOST_LIVE_URL`). */
  env?: Record<string, string>;
}

/** A running worker process. */
export interface WorkerProcess {
  readonly pid: number;
  /** User + system CPU seconds so far. */
  cpuSeconds(): number;
  /** The same of its live child processes (the host's MCP server). */
  childrenCpuSeconds(): number;
  /** Resident memory now and its peak so far, in bytes. */
  memory(): { rss: number; peak: number };
  /** Its SDK's Prometheus endpoint (bench/perf/worker-metrics.ts). */
  readonly metricsUrl: string;
  stop(): Promise<void>;
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
  const metricsPort = await freePort();
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
      BENCH_TRACES_URL: spec.tracesUrl ?? '',
      BENCH_METRICS_PORT: String(metricsPort),
      ...spec.env,
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
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    cpuSeconds: () => cpuSeconds(pid),
    childrenCpuSeconds: () => childrenCpuSeconds(pid),
    memory: () => ({ rss: statusBytes(pid, 'VmRSS'), peak: statusBytes(pid, 'VmHWM') }),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
