/**
 * Section 2, throughput: C conversations at once on one worker, each one turn of 3 model calls
 * (200 ms each) and 2 tool calls (50 ms each) between them, so a turn ideally takes 700 ms;
 * the host against the floor (the same activities, each only waiting as long), both on the server
 * with eager activity dispatch, each worker in its own process (its CPU and memory read from
 * /proc). At each concurrency the host and the floor take turns, repetition by repetition.
 */
import { randomUUID } from 'node:crypto';
import { median } from '../median';
import { scriptedTurn } from '../scripted-turn';
import { floorConversation, floorSteps, hostConversation, type TurnTiming } from './conversations';
import type { PerfEnv } from './perf-env';
import { requestsBetween, serverRequests } from './server-requests';
import { cpuSeconds } from './proc-stats';
import { startWorker, type WorkerProcess } from './worker-process';

export const MODEL_MS = 200;
export const TOOL_MS = 50;
export const MODEL_CALLS = 3;
export const IDEAL_TURN_MS = MODEL_CALLS * MODEL_MS + (MODEL_CALLS - 1) * TOOL_MS;

type Kind = 'floor' | 'host' | 'before';

/** One batch of C conversations on one worker. */
export interface BatchResult {
  kind: Kind;
  concurrency: number;
  wallMs: number;
  p50: number;
  p95: number;
  cpuSeconds: number;
  /** The dev server's CPU seconds during the batch (NaN when its process was not found). */
  serverCpuSeconds: number;
  /** The worker's child processes' CPU seconds during the batch (the host's MCP server). */
  childrenCpuSeconds: number;
  /** This process's CPU seconds during the batch: the clients, and for the host the fake model it calls. */
  benchCpuSeconds: number;
  failed: number;
  /** Requests the server took during the batch, by operation, largest first. */
  requests: Array<[string, number]>;
}

export interface LevelResult {
  concurrency: number;
  /** Batches per design. */
  repeat: number;
  batches: BatchResult[];
  /**
   * Per kind: the worker's peak resident memory after its first measured batch and over all of the
   * level's batches (a fresh worker per level). The heap grows over further batches toward a plateau
   * (200 conversations, 8 batches: 342 → 526 MB, the floor's 264 → 277), so the figure per conversation
   * comes from the first.
   */
  memory: Map<Kind, { first: number; peak: number }>;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

async function batch(env: PerfEnv, kind: Kind, worker: WorkerProcess, taskQueue: string, concurrency: number, nextTag: () => number): Promise<BatchResult> {
  const { client } = env.servers.eager;
  const steps = floorSteps(MODEL_CALLS, MODEL_MS, TOOL_MS);
  const cpuBefore = worker.cpuSeconds();
  const childrenCpuBefore = worker.childrenCpuSeconds();
  const serverPid = env.servers.eager.pid;
  const serverCpu = (): number => (serverPid !== undefined ? cpuSeconds(serverPid) : NaN);
  const serverCpuBefore = serverCpu();
  const benchCpuBefore = process.cpuUsage();
  const requestsBefore = await serverRequests(env.servers.eager.metricsUrl);
  const started = performance.now();
  const one = (): Promise<TurnTiming> => {
    if (kind === 'floor') return floorConversation(client, taskQueue, true, steps);
    // The host, or the host of the BENCH_BEFORE_ROOT tree: the same conversation.
    const turn = scriptedTurn(MODEL_CALLS);
    return hostConversation(client, taskQueue, env.model, nextTag(), (req) => {
      const step = turn.answer(req);
      if (step.kind !== 'message') throw new Error('unexpected scripted step');
      return step;
    }, { modelMs: MODEL_MS, maxIterations: MODEL_CALLS });
  };
  const settled = await Promise.allSettled(Array.from({ length: concurrency }, one));
  const wallMs = performance.now() - started;
  // The counter lags a little behind the last answer: the end signals and completions settle first.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const serverCpuSeconds = serverCpu() - serverCpuBefore;
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const requests = requestsBetween(requestsBefore, await serverRequests(env.servers.eager.metricsUrl));
  const turns = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.turnMs] : []));
  const failed = settled.filter((s) => s.status === 'rejected');
  if (failed[0]?.status === 'rejected') process.stderr.write(`  ${kind} ×${concurrency}: ${failed.length} failed, e.g. ${String(failed[0].reason)}\n`);
  return {
    kind,
    concurrency,
    wallMs,
    p50: turns.length ? percentile(turns, 0.5) : NaN,
    p95: turns.length ? percentile(turns, 0.95) : NaN,
    cpuSeconds: worker.cpuSeconds() - cpuBefore,
    serverCpuSeconds,
    childrenCpuSeconds: worker.childrenCpuSeconds() - childrenCpuBefore,
    benchCpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
    failed: failed.length,
    requests,
  };
}

/**
 * Beyond this many conversations at once the "before" tree is left out (a shorter run), unless
 * `BENCH_BEFORE_MAX_CONCURRENCY` says otherwise (e.g. 200, to compare two trees under load in one run).
 */
const BEFORE_MAX_CONCURRENCY = Number(process.env.BENCH_BEFORE_MAX_CONCURRENCY ?? 50);

/** `levels`: concurrency → batches per design (the designs alternate batch by batch). */
export async function runThroughput(env: PerfEnv, options: { levels: ReadonlyArray<readonly [number, number]>; nextTag: () => number }): Promise<LevelResult[]> {
  const results: LevelResult[] = [];
  const { address } = env.servers.eager;
  for (const [concurrency, repeat] of options.levels) {
    const queues: Record<Kind, string> = { floor: `perf-tp-floor-${randomUUID()}`, host: `perf-tp-host-${randomUUID()}`, before: `perf-tp-before-${randomUUID()}` };
    const withBefore = env.before !== undefined && concurrency <= BEFORE_MAX_CONCURRENCY;
    const kinds: Kind[] = withBefore ? ['floor', 'host', 'before'] : ['floor', 'host'];
    const workers = new Map<Kind, WorkerProcess>();
    try {
      workers.set('floor', await startWorker({ kind: 'floor', address, taskQueue: queues.floor, bundlePath: env.floorBundle }));
      workers.set('host', await startWorker({ kind: 'host', address, taskQueue: queues.host, bundlePath: env.hostBundle, claudeUrl: env.model.url, ...(env.hostRoot ? { srcRoot: env.hostRoot } : {}), toolMs: TOOL_MS }));
      if (env.before && withBefore) {
        workers.set('before', await startWorker({
          kind: 'host', address, taskQueue: queues.before, bundlePath: env.before.bundle, claudeUrl: env.model.url, toolMs: TOOL_MS, srcRoot: env.before.root,
        }));
      }
      const memory = new Map<Kind, { first: number; peak: number }>();
      // One small unmeasured batch each: the MCP server's start, connections, JIT.
      for (const kind of kinds) {
        const worker = workers.get(kind);
        if (!worker) continue;
        await batch(env, kind, worker, queues[kind], 2, options.nextTag);
      }
      const batches: BatchResult[] = [];
      for (let r = 0; r < repeat; r++) {
        // A rotating order: each kind goes first in turn.
        for (const kind of kinds.map((_, i) => kinds[(i + r) % kinds.length] as Kind)) {
          const worker = workers.get(kind);
          if (!worker) continue;
          const result = await batch(env, kind, worker, queues[kind], concurrency, options.nextTag);
          batches.push(result);
          if (r === 0) memory.set(kind, { first: worker.memory().peak, peak: 0 });
          process.stderr.write(
            `  throughput ×${concurrency} ${r + 1}/${repeat} ${kind.padEnd(5)} ${(result.wallMs / 1000).toFixed(1)} s, ` +
              `p50 ${(result.p50 / 1000).toFixed(2)} s, p95 ${(result.p95 / 1000).toFixed(2)} s, rss ${(worker.memory().rss / MB).toFixed(0)} MB (peak ${(worker.memory().peak / MB).toFixed(0)}), cpu ${result.cpuSeconds.toFixed(1)} s, mcp server cpu ${result.childrenCpuSeconds.toFixed(1)} s, server cpu ${result.serverCpuSeconds.toFixed(1)} s, bench process cpu ${result.benchCpuSeconds.toFixed(1)} s; ` +
              `server requests per conversation: ${result.requests.map(([op, n]) => `${op} ${(n / concurrency).toFixed(1)}`).join(', ')}\n`,
          );
        }
      }
      for (const [kind, worker] of workers) memory.set(kind, { first: memory.get(kind)?.first ?? worker.memory().peak, peak: worker.memory().peak });
      results.push({ concurrency, repeat, batches, memory });
    } finally {
      await Promise.all([...workers.values()].map((w) => w.stop()));
    }
  }
  return results;
}

const MB = 1024 * 1024;

/** What one more conversation held at the peak of a first batch: its growth over the worker that ran one at a time. */
function perConversation(mem: { first: number } | undefined, single: { first: number } | undefined, concurrency: number): string {
  if (!mem || !single || concurrency <= 1) return '—';
  return `${((mem.first - single.first) / (concurrency - 1) / 1024).toFixed(0)} KB`;
}

/** The section's Markdown. */
export function throughputReport(levels: readonly LevelResult[], beforeLabel?: string): string[] {
  const lines = [
    `Each conversation: one turn of ${MODEL_CALLS} model calls (${MODEL_MS} ms each) and ${MODEL_CALLS - 1} tool calls (${TOOL_MS} ms each), ideally ${IDEAL_TURN_MS} ms, ` +
      'then ended; all C started at once, on one worker; eager dispatch on (server and SDK). Each cell is the median over its batches ' +
      `(${levels.map((l) => `C = ${l.concurrency}: ${l.repeat}`).join(', ')}; p50 and p95 are taken over a batch's C turns); ` +
      'turn latency = start of the turn (update-with-start) to its answer, over the ideal. RSS per conversation: ' +
      '(peak RSS after the first batch at C − the same at C = 1) / (C − 1), each level on a fresh worker; peak RSS: after the first batch / after all of them. Server requests: what the dev server\'s ' +
      'frontend counted during the batch (its `service_requests` metric, every operation, long polls included), per conversation. ' +
      'Server CPU: the dev server process\'s CPU time during the batch (from `/proc`; it serves that batch alone), per conversation.',
    '',
    '| C | design | conversations/min | turn p50 / ideal | turn p95 / ideal | worker CPU (cores) | CPU ms / conversation | peak RSS: first batch / all | RSS / conversation over C = 1 | server requests / conversation | server CPU ms / conversation | host p95 / floor p95 |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const single = levels.find((level) => level.concurrency === 1);
  for (const level of levels) {
    const p95 = new Map<Kind, number>();
    for (const kind of ['floor', 'host', 'before'] as const) {
      const of = level.batches.filter((b) => b.kind === kind);
      if (of.length === 0) continue;
      const m = (f: (b: BatchResult) => number): number => median(of.map(f));
      p95.set(kind, m((b) => b.p95));
      const mem = level.memory.get(kind);
      const failed = of.reduce((sum, b) => sum + b.failed, 0);
      lines.push(
        `| ${level.concurrency} | ${kind === 'before' ? `host at ${beforeLabel ?? 'before'}` : kind}${failed ? ` (${failed} failed)` : ''} | ${m((b) => (b.concurrency / b.wallMs) * 60_000).toFixed(0)} | ` +
          `${(m((b) => b.p50) / IDEAL_TURN_MS).toFixed(2)}× | ${(m((b) => b.p95) / IDEAL_TURN_MS).toFixed(2)}× | ` +
          `${m((b) => b.cpuSeconds / (b.wallMs / 1000)).toFixed(2)} | ${m((b) => (b.cpuSeconds * 1000) / b.concurrency).toFixed(0)} | ` +
          `${mem ? `${(mem.first / MB).toFixed(0)} / ${(mem.peak / MB).toFixed(0)} MB` : '—'} | ${perConversation(mem, single?.memory.get(kind), level.concurrency)} | ` +
          `${m((b) => b.requests.reduce((sum, [, n]) => sum + n, 0) / b.concurrency).toFixed(1)} | ` +
          `${Number.isNaN(m((b) => b.serverCpuSeconds)) ? '—' : m((b) => (b.serverCpuSeconds * 1000) / b.concurrency).toFixed(0)} | ` +
          `${kind !== 'floor' && p95.get('floor') ? `**${((p95.get(kind) ?? 0) / (p95.get('floor') ?? 1)).toFixed(2)}×**` : ''} |`,
      );
    }
  }
  const largest = levels.at(-1);
  if (largest) {
    // Every process of a batch shares the machine's cores: where each design's CPU went.
    const cpuLine = (kind: Kind): string | undefined => {
      const of = largest.batches.filter((b) => b.kind === kind);
      if (of.length === 0) return undefined;
      const perConv = (f: (b: BatchResult) => number): string => {
        const value = median(of.map((b) => (f(b) * 1000) / b.concurrency));
        return Number.isNaN(value) ? '—' : value.toFixed(0);
      };
      const name = kind === 'before' ? `host at ${beforeLabel ?? 'before'}` : kind;
      return `- ${name}: worker ${perConv((b) => b.cpuSeconds)}, its MCP server ${perConv((b) => b.childrenCpuSeconds)}, dev server ${perConv((b) => b.serverCpuSeconds)}, benchmark process ${perConv((b) => b.benchCpuSeconds)}`;
    };
    lines.push(
      '',
      `CPU ms per conversation at C = ${largest.concurrency} (medians over the batches) by process: the worker; its child processes (the host's stdio MCP server); the dev server; the benchmark's own process ` +
        '(its clients, and the fake model the host calls):',
      '',
      ...(['floor', 'host', 'before'] as const).flatMap((kind) => cpuLine(kind) ?? []),
    );
    lines.push('', `Server requests per conversation by operation at C = ${largest.concurrency} (first batch of each design):`, '');
    for (const kind of ['floor', 'host', 'before'] as const) {
      const first = largest.batches.find((b) => b.kind === kind);
      if (!first) continue;
      const name = kind === 'before' ? `host at ${beforeLabel ?? 'before'}` : kind;
      lines.push(`- ${name}: ${first.requests.map(([op, n]) => `${op} ${(n / first.concurrency).toFixed(1)}`).join(', ')}`);
    }
  }
  return lines;
}
