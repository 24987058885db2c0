/**
 * Section 1, ms per round, side by side in one run: the plain loop, Temporal's floor (the same
 * activities, empty) on the default server and with eager activity dispatch, the host on both
 * servers, and the host with its tool marked fast (a local activity) on the eager server. A round
 * is one model call and one tool call; a turn of R model calls is R rounds (the
 * last without its tool call) plus the turn's tool listing. Zero model and tool latency: what is
 * measured is what each design adds. The designs take turns in a rotating order, so the machine's
 * load falls on all of them alike.
 */
import { randomUUID } from 'node:crypto';
import { median } from '../median';
import { scriptedTurn } from '../scripted-turn';
import { floorConversation, floorSteps, hostConversation } from './conversations';
import { historyBreakdown, type Breakdown } from './history-breakdown';
import type { PerfEnv } from './perf-env';
import { startPlainLoop, startPlainLoopProcess, type PlainLoop } from './plain-loop';
import { activityExecution, executionBetween, type ActivityExecution } from './worker-metrics';
import { startWorker, type WorkerProcess } from './worker-process';

export type RoundDesign = 'plain' | 'plain-process' | 'floor' | 'floor-eager' | 'host' | 'host-eager' | 'host-traced-eager' | 'host-fast-eager' | 'before' | 'before-eager';

export const ROUND_LABEL: Record<RoundDesign, string> = {
  plain: 'plain loop (no Temporal)',
  'plain-process': 'plain loop in a process of its own, streaming as the host (no Temporal)',
  floor: 'floor, eager dispatch refused (allowEagerDispatch: false)',
  'floor-eager': 'floor, eager dispatch',
  host: 'host',
  'host-eager': 'host, eager dispatch',
  'host-traced-eager': 'host, traced (OTLP to a real Jaeger), eager dispatch',
  'host-fast-eager': 'host, fast tool (local activity), eager dispatch',
  before: 'host before (BENCH_BEFORE_ROOT)',
  'before-eager': 'host before, eager dispatch',
};

export interface RoundsResult {
  designs: RoundDesign[];
  /** The commit of the "before" tree, when there is one. */
  beforeLabel?: string;
  modelCalls: number;
  repeat: number;
  /** Per design, ms per round of each repetition. */
  perRound: Map<RoundDesign, number[]>;
  breakdown: Map<RoundDesign, Breakdown>;
  /** Per design run by a worker: its activities' execution over the measured turns, as its SDK timed it. */
  execution: Map<RoundDesign, ActivityExecution>;
}

export async function runRounds(env: PerfEnv, options: { modelCalls: number; repeat: number; nextTag: () => number }): Promise<RoundsResult> {
  const { modelCalls, repeat } = options;
  const queues = {
    plain: `perf-host-${randomUUID()}`,
    eager: `perf-host-eager-${randomUUID()}`,
    fastEager: `perf-host-fast-eager-${randomUUID()}`,
    tracedEager: `perf-host-traced-eager-${randomUUID()}`,
    floor: `perf-floor-${randomUUID()}`,
    floorEager: `perf-floor-eager-${randomUUID()}`,
    before: `perf-before-${randomUUID()}`,
    beforeEager: `perf-before-eager-${randomUUID()}`,
  };
  const before = env.before;
  const { plain: plainServer, eager: eagerServer } = env.servers;
  const workers: WorkerProcess[] = [];
  const plainLoop = startPlainLoop(env.model, 0);
  let plainProcess: PlainLoop | undefined;
  try {
    plainProcess = await startPlainLoopProcess(env.model, 0);
    const specs: Array<[RoundDesign, Parameters<typeof startWorker>[0]]> = [
      ['host', { kind: 'host', address: plainServer.address, taskQueue: queues.plain, bundlePath: env.hostBundle, claudeUrl: env.model.url, ...(env.hostRoot ? { srcRoot: env.hostRoot } : {}) }],
      ['host-eager', { kind: 'host', address: eagerServer.address, taskQueue: queues.eager, bundlePath: env.hostBundle, claudeUrl: env.model.url, ...(env.hostRoot ? { srcRoot: env.hostRoot } : {}) }],
      // The same host tracing (issue 30), its spans sent to a real Jaeger: what tracing costs a round.
      ...(env.tracesUrl !== undefined
        ? ([['host-traced-eager', { kind: 'host', address: eagerServer.address, taskQueue: queues.tracedEager, bundlePath: env.hostBundle, claudeUrl: env.model.url, tracesUrl: env.tracesUrl, ...(env.hostRoot ? { srcRoot: env.hostRoot } : {}) }]] as Array<[RoundDesign, Parameters<typeof startWorker>[0]]>)
        : []),
      // The same host with its MCP server marked fast (mcp.json `fast: true`): tool calls as local activities.
      ['host-fast-eager', { kind: 'host', address: eagerServer.address, taskQueue: queues.fastEager, bundlePath: env.hostBundle, claudeUrl: env.model.url, fastTools: true, ...(env.hostRoot ? { srcRoot: env.hostRoot } : {}) }],
      ['floor', { kind: 'floor', address: plainServer.address, taskQueue: queues.floor, bundlePath: env.floorBundle }],
      ['floor-eager', { kind: 'floor', address: eagerServer.address, taskQueue: queues.floorEager, bundlePath: env.floorBundle }],
      ...(before
        ? ([
            ['before', { kind: 'host', address: plainServer.address, taskQueue: queues.before, bundlePath: before.bundle, claudeUrl: env.model.url, srcRoot: before.root }],
            ['before-eager', { kind: 'host', address: eagerServer.address, taskQueue: queues.beforeEager, bundlePath: before.bundle, claudeUrl: env.model.url, srcRoot: before.root }],
          ] as Array<[RoundDesign, Parameters<typeof startWorker>[0]]>)
        : []),
    ];
    const started = await Promise.all(specs.map(async ([design, spec]) => [design, await startWorker(spec)] as const));
    for (const [, worker] of started) workers.push(worker);
    const workerOf = new Map<RoundDesign, WorkerProcess>(started);
    const steps = floorSteps(modelCalls, 0, 0);
    const run = async (design: RoundDesign): Promise<{ ms: number; workflowId?: string }> => {
      const tag = options.nextTag();
      const responder = (turn: ReturnType<typeof scriptedTurn>) => (req: Parameters<typeof turn.answer>[0]) => {
        const step = turn.answer(req);
        if (step.kind !== 'message') throw new Error('scripted turn answered with something else than a message');
        return step;
      };
      switch (design) {
        case 'plain':
          return { ms: await plainLoop.turn(tag, responder(scriptedTurn(modelCalls)), 0) };
        case 'plain-process':
          if (!plainProcess) throw new Error('the plain loop\'s process did not start');
          return { ms: await plainProcess.turn(tag, responder(scriptedTurn(modelCalls)), 0) };
        case 'floor':
        case 'floor-eager': {
          const eager = design === 'floor-eager';
          const t = await floorConversation((eager ? eagerServer : plainServer).client, eager ? queues.floorEager : queues.floor, eager, steps);
          return { ms: t.turnMs, workflowId: t.workflowId };
        }
        case 'host':
        case 'host-eager':
        case 'host-fast-eager':
        case 'host-traced-eager':
        case 'before':
        case 'before-eager': {
          const eager = design.endsWith('eager');
          const queue =
            design === 'host-fast-eager' ? queues.fastEager : design === 'host-traced-eager' ? queues.tracedEager : design.startsWith('before') ? (eager ? queues.beforeEager : queues.before) : eager ? queues.eager : queues.plain;
          const t = await hostConversation((eager ? eagerServer : plainServer).client, queue, env.model, tag,
            responder(scriptedTurn(modelCalls)), { modelMs: 0, maxIterations: modelCalls });
          return { ms: t.turnMs, workflowId: t.workflowId };
        }
      }
    };
    const designs: RoundDesign[] = [
      'plain',
      'plain-process',
      'floor',
      'floor-eager',
      'host',
      'host-eager',
      ...(env.tracesUrl !== undefined ? (['host-traced-eager'] as const) : []),
      'host-fast-eager',
      ...(before ? (['before', 'before-eager'] as const) : []),
    ];
    // One unmeasured turn each first: connections, JIT, the MCP server's start.
    for (const design of designs) await run(design);
    // What each worker's activities ran from here on, as its SDK timed them.
    const executionBefore = new Map(await Promise.all([...workerOf].map(async ([design, w]) => [design, await activityExecution(w.metricsUrl)] as const)));
    const perRound = new Map<RoundDesign, number[]>(designs.map((d) => [d, []]));
    const lastIds = new Map<RoundDesign, string>();
    for (let r = 0; r < repeat; r++) {
      const order = designs.map((_, i) => designs[(i + r) % designs.length] as RoundDesign);
      for (const design of order) {
        const { ms, workflowId } = await run(design);
        perRound.get(design)?.push(ms / modelCalls);
        if (workflowId) lastIds.set(design, workflowId);
      }
      process.stderr.write(`  rounds ${r + 1}/${repeat}: ${designs.map((d) => `${d} ${(perRound.get(d)?.at(-1) ?? 0).toFixed(1)}`).join(', ')} ms/round\n`);
    }
    const execution = new Map<RoundDesign, ActivityExecution>();
    for (const [design, worker] of workerOf) {
      const before = executionBefore.get(design);
      if (before) execution.set(design, executionBetween(before, await activityExecution(worker.metricsUrl)));
    }
    const breakdown = new Map<RoundDesign, Breakdown>();
    for (const [design, id] of lastIds) {
      const client = design.endsWith('eager') ? eagerServer.client : plainServer.client;
      breakdown.set(design, await historyBreakdown(client, id));
    }
    return { designs, ...(before ? { beforeLabel: before.label } : {}), modelCalls, repeat, perRound, breakdown, execution };
  } finally {
    await plainLoop.close();
    await plainProcess?.close();
    await Promise.all(workers.map((w) => w.stop()));
  }
}

function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

/** The section's Markdown. */
export function roundsReport(result: RoundsResult): string[] {
  const med = (d: RoundDesign): number => median(result.perRound.get(d) ?? []);
  const floorEager = med('floor-eager');
  const plain = med('plain');
  const lines = [
    `A turn of ${result.modelCalls} model calls and ${result.modelCalls - 1} tool calls (one per reply), with the model and the tool answering at once; ` +
      `ms per round = the turn's latency / ${result.modelCalls}, median of ${result.repeat} turns per design, the designs taking turns in a rotating order. ` +
      'Temporal Server 1.32 dispatches activities eagerly by default (`system.enableActivityEagerExecution`), so the host\'s ' +
      'activities go out eagerly on both dev servers, and the floor to compare with is the one with eager dispatch.',
    '',
    '| design | ms per round | min – max | × plain loop | × floor, eager dispatch |',
    '|---|---:|---:|---:|---:|',
  ];
  const label = (design: RoundDesign): string => (design.startsWith('before') && result.beforeLabel ? ROUND_LABEL[design].replace('before (BENCH_BEFORE_ROOT)', `at ${result.beforeLabel}`).replace('before,', `at ${result.beforeLabel},`) : ROUND_LABEL[design]);
  for (const design of result.designs) {
    const values = result.perRound.get(design) ?? [];
    const sameFloor = design.startsWith('plain') ? undefined : floorEager;
    lines.push(
      `| ${label(design)} | ${fmt(med(design))} | ${fmt(Math.min(...values))} – ${fmt(Math.max(...values))} | ` +
        `${(med(design) / plain).toFixed(1)}× | ${sameFloor === undefined ? '—' : `**${(med(design) / sameFloor).toFixed(2)}×**`} |`,
    );
  }
  const work = med('plain-process');
  const hostEager = med('host-eager');
  if (result.designs.includes('plain-process') && result.designs.includes('host-eager')) {
    lines.push(
      '',
      `The floor's activities do nothing; the host's call a model over HTTP and a tool over stdio. The same calls without Temporal, ` +
        `in a process of their own as a worker makes them (the plain loop streaming each answer, as \`callClaude\` does), take ${fmt(work)} ms per round, ` +
        `so the floor plus the calls' own work is ${fmt(floorEager + work)} ms: the host with eager dispatch runs **${(hostEager / (floorEager + work)).toFixed(2)}×** that, ` +
        `${fmt(hostEager - floorEager - work)} ms per round above it (of its ${fmt(hostEager - floorEager)} ms above the floor).`,
    );
  }
  if (result.designs.includes('host-traced-eager')) {
    const traced = med('host-traced-eager');
    lines.push(
      '',
      `Tracing (\`OTEL_EXPORTER_OTLP_ENDPOINT\` set, every span of the round exported by OTLP/HTTP to a real Jaeger): ${fmt(traced)} ms per round against ` +
        `${fmt(hostEager)} untraced, **${(traced / hostEager).toFixed(2)}×** (${fmt(traced - hostEager)} ms per round).`,
    );
  } else {
    lines.push('', 'Tracing: not measured (Jaeger is not built here: `npm run setup:jaeger`).');
  }
  if (result.execution.size > 0) {
    const rounds = result.repeat * result.modelCalls;
    const workOf = (design: RoundDesign): number => [...(result.execution.get(design)?.values() ?? [])].reduce((sum, e) => sum + e.ms, 0) / rounds;
    const floorRest = med('floor-eager') - workOf('floor-eager');
    lines.push(
      '',
      'The same rounds split by what each worker\'s own SDK measured (its Prometheus metric `temporal_activity_execution_latency`, and ' +
        '`temporal_local_activity_execution_latency` for local activities; summed over the measured turns): the activities\' functions ' +
        'running, and the rest of the round (Temporal: workflow tasks, dispatch, payloads, the server).',
      '',
      '| design | ms per round | activities running, ms per round | the rest, ms per round | the rest × the floor\'s (eager) | per call (mean ms) |',
      '|---|---:|---:|---:|---:|---|',
    );
    for (const design of result.designs) {
      const executed = result.execution.get(design);
      if (!executed) continue;
      const rest = med(design) - workOf(design);
      const perCall = [...executed].map(([type, e]) => `${type} ${fmt(e.ms / e.count)} (${e.count})`).join('; ');
      lines.push(`| ${label(design)} | ${fmt(med(design))} | ${fmt(workOf(design))} | ${fmt(rest)} | **${(rest / floorRest).toFixed(2)}×** | ${perCall} |`);
    }
  }
  lines.push('', 'Where the time goes, from the last measured turn\'s history (server clock, medians in ms): queued = scheduled → started, run = started → completed.', '');
  lines.push('| design | workflow task (count) | workflow task: queued / run | activity: queued / run (count) |', '|---|---:|---:|---|');
  for (const [design, b] of result.breakdown) {
    const acts = [...b.activities].map(([type, a]) => `${type} ${fmt(a.queued)} / ${fmt(a.run)} (${a.count})`).join('; ');
    lines.push(`| ${label(design)} | ${fmt(b.workflowTaskMs)} (${b.workflowTasks}) | ${fmt(b.workflowTaskQueuedMs)} / ${fmt(b.workflowTaskRunMs)} | ${acts} |`);
  }
  return lines;
}
