/**
 * Section 6, live text: how late a follower shows the model's words. The fake model streams a
 * 40-word answer, one word every 100 ms (bench/perf/live-answer.ts), and records when it writes
 * each; the library's clients, in a process of their own (bench/perf/live-follower.ts), record when
 * each word first shows in a `claude_text` event. Per design ({@link liveDesigns}):
 *
 * - per word, the delay from its writing to its showing (p50, p90, max) and the first word's, and
 *   the turn's time, for a sender that follows its own turn (`send` with `onProgress`);
 * - the server's requests per follower per second with 1, 10 and 100 `follow`ers of one streamed
 *   turn: the dev server's frontend requests of the followers' operations
 *   (bench/perf/server-requests.ts) over the followers' time, less those of the same turn without
 *   followers;
 * - the heartbeats per Claude call and the history bytes of the streamed turn.
 *
 * The designs: the embedded default (heartbeats); with `BENCH_BEFORE_ROOT`, another tree's (its
 * constants); the broker (Redis: `BENCH_LIVE_URL`, else a `redis-server` of our own when Debian's
 * package is installed; `BENCH_LIVE_URL=off` leaves it out). Each design's worker runs in its own
 * process on the server with eager dispatch; the designs take turns, turn by turn.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { endConversation, startConversation } from '../../src/client/commands';
import { DEFAULTS } from '../../src/config/settings';
import type { MessageAnswer } from '../../src/offline';
import { redisInstalled, startRedis } from '../../test/support/redis-server';
import { median } from '../median';
import { userText } from '../turn-settings';
import { REQUEST_AS_PLAIN } from './conversations';
import { LIVE_WORDS, WORD_GAP_MS, liveAnswer, wordDelays, type TextMark, type WordDelays } from './live-answer';
import { startLiveClients, type LiveClients, type LiveTurnResult } from './live-follower';
import type { PerfEnv } from './perf-env';
import { startWorker, type WorkerProcess } from './worker-process';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** One way of getting the text to followers, and the settings (worker's and clients' environment) that choose it. */
export interface LiveDesign {
  name: 'default' | 'before' | 'broker';
  label: string;
  env: Record<string, string>;
  /** Another tree whose worker (src/ and workflow bundle) and client library this design runs (`BENCH_BEFORE_ROOT`); default this one. */
  tree?: { root: string; bundle: string };
}

/**
 * The designs measured, all in one place: today's heartbeat path always; with `BENCH_BEFORE_ROOT`,
 * the same path as another tree has it (its worker and its client library, so its constants: the
 * before of a change); and the live channel when there is a broker, `brokerUrl` (it becomes
 * `MCP_HOST_LIVE_URL` of the worker and of the clients' process; the other designs run with it
 * empty). The URL may hold credentials: it is never printed.
 */
export function liveDesigns(before?: PerfEnv['before'], brokerUrl?: string): LiveDesign[] {
  const off = { MCP_HOST_LIVE_URL: '' };
  const designs: LiveDesign[] = [{ name: 'default', label: 'default (heartbeats)', env: off }];
  if (before) designs.push({ name: 'before', label: `default at ${before.label} (heartbeats)`, env: off, tree: { root: before.root, bundle: before.bundle } });
  if (brokerUrl) designs.push({ name: 'broker', label: 'broker (Redis, MCP_HOST_LIVE_URL)', env: { MCP_HOST_LIVE_URL: brokerUrl } });
  return designs;
}

/**
 * The broker of the run: `BENCH_LIVE_URL` (`off`: none); else, when Debian's `redis-server` is
 * installed, one of our own for the run (test/support/redis-server.ts: a free port, a temp dir, no
 * persistence); else none.
 */
async function startBroker(env: NodeJS.ProcessEnv = process.env): Promise<{ url: string; origin: string; stop(): Promise<void> } | undefined> {
  const given = env.BENCH_LIVE_URL;
  if (given === 'off') return undefined;
  if (given) return { url: given, origin: 'BENCH_LIVE_URL', stop: () => Promise.resolve() };
  if (!redisInstalled()) return undefined;
  const redis = await startRedis();
  const version = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1] ?? '?';
  return { url: redis.url, origin: `redis-server ${version} started for the run (no persistence)`, stop: () => redis.stop() };
}

/** Followers run this long before the send: their first reads (describe, the history so far) are done. */
const SETTLE_MS = 1000;
/** The dev server exports its counters periodically: this long after a turn they include it. */
const FLUSH_MS = 1500;
/** The conversation's first (unmeasured) turn's answer. */
function firstAnswer(): MessageAnswer {
  return { kind: 'message', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Ready.' }] };
}
const HEARTBEAT_OPERATIONS = ['RecordActivityTaskHeartbeat', 'RecordActivityTaskHeartbeatById'];
/**
 * What a follower asks of the server: the running calls (`DescribeWorkflowExecution`) and the
 * history's long poll. The rest in the same window is the worker's and the sender's, the same with
 * and without followers except the workers' task-queue polls, whose number follows the SDK's poller
 * scaling (3 to 26 of each in the same turn, measured), not the followers: left out.
 */
const FOLLOWER_OPERATIONS = ['DescribeWorkflowExecution', 'PollWorkflowExecutionHistory', 'GetWorkflowExecutionHistory'];

/** One measured turn. */
interface LiveTurn {
  written: TextMark[];
  clients: LiveTurnResult;
  /** Bytes and events the measured turn added to the history. */
  historyBytes: number;
  historyEvents: number;
}

/** A level of followers: per repetition, the requests per follower per second and the followers' delays. */
export interface LoadLevel {
  followers: number;
  /** Per repetition: (requests − the same turn's without followers) / followers / the followers' seconds. */
  perFollowerSecond: number[];
  /** The same for the largest operations, at the last repetition. */
  byOperation: Array<[string, number]>;
  /** Per repetition, the median over followers of each follower's p90 and the worst follower's max, ms. */
  p90: number[];
  max: number[];
  /** Per repetition, the clients' process's CPU over the followers' time, in cores (1 = one core busy throughout). */
  clientCores: number[];
}

/** One design's figures. */
export interface LiveDesignResult {
  design: LiveDesign;
  /** Per measured turn (the sender's own `onProgress`). */
  delays: WordDelays[];
  turnMs: number[];
  heartbeats: number[];
  historyBytes: number[];
  historyEvents: number[];
  load: LoadLevel[];
  /** The live path's constants in the design's tree, read from its source. */
  constants: string;
}

export interface LiveTextResult {
  results: LiveDesignResult[];
  turns: number;
  loadRepeat: number;
  /** Where the broker design's broker came from, or why there was none. */
  broker: string;
}

async function historySize(client: Client, workflowId: string): Promise<{ bytes: number; events: number }> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return { bytes: temporal.api.history.v1.History.encode(history).finish().length, events: history.events?.length ?? 0 };
}

/** The live-path constants of the measured tree, read from its source for the report. */
function constantsOf(root: string, broker: boolean): string {
  const read = (file: string, pattern: RegExp): string => {
    try {
      return pattern.exec(fs.readFileSync(path.join(root, file), 'utf8'))?.[1] ?? '?';
    } catch {
      return '?';
    }
  };
  return [
    `QUIET_START_MS ${read('src/activities/publish-progress.ts', /QUIET_START_MS = (\d+)/)}`,
    `PUBLISH_GAP_MS ${read('src/activities/publish-progress.ts', /PUBLISH_GAP_MS = (\d+)/)}`,
    `maxHeartbeatThrottleInterval ${read('src/worker/create-worker.ts', /maxHeartbeatThrottleInterval: '(\d+) milliseconds'/)} ms`,
    broker
      ? `LIVE_FOLLOW_POLL_MS ${read('src/client/follow-conversation.ts', /LIVE_FOLLOW_POLL_MS = (\d+)/)} (the describe poll beside the broker)`
      : `DEFAULT_FOLLOW_POLL_MS ${read('src/client/follow-conversation.ts', /DEFAULT_FOLLOW_POLL_MS = (\d+)/)}`,
  ].join(', ');
}

/** The requests of the operations followers make. */
function followerRequests(requests: ReadonlyArray<readonly [string, number]>): number {
  return requests.filter(([op]) => FOLLOWER_OPERATIONS.includes(op)).reduce((sum, [, n]) => sum + n, 0);
}

export async function runLiveText(
  env: PerfEnv,
  options: { turns: number; loadRepeat: number; followerLevels: number[]; nextTag: () => number },
): Promise<LiveTextResult> {
  const server = env.servers.eager;
  const broker = await startBroker();
  const designs = liveDesigns(env.before, broker?.url);
  const workers: WorkerProcess[] = [];
  const clientsOf = new Map<LiveDesign['name'], { clients: LiveClients; queue: string }>();
  try {
    for (const design of designs) {
      const queue = `perf-live-${design.name}-${randomUUID()}`;
      workers.push(
        await startWorker({
          kind: 'host',
          address: server.address,
          taskQueue: queue,
          bundlePath: design.tree?.bundle ?? env.hostBundle,
          claudeUrl: env.model.url,
          env: design.env,
          ...(design.tree ? { srcRoot: design.tree.root } : env.hostRoot ? { srcRoot: env.hostRoot } : {}),
        }),
      );
      const srcRoot = design.tree?.root ?? env.hostRoot;
      clientsOf.set(design.name, { clients: await startLiveClients(server.address, queue, design.env, srcRoot), queue });
    }
    const turn = async (design: LiveDesign, followers: number, onProgress: boolean): Promise<LiveTurn> => {
      const of = clientsOf.get(design.name);
      if (!of) throw new Error(`no clients for ${design.name}`);
      const tag = options.nextTag();
      const written: TextMark[] = [];
      let requests = 0;
      env.model.play(tag, () => {
        requests += 1;
        if (requests === 1) return firstAnswer();
        written.length = 0; // a retried call streams again
        return liveAnswer((mark) => written.push(mark));
      }, 0);
      try {
        const { id } = await startConversation({ client: server.client, taskQueue: of.queue }, userText(tag), {
          wait: true,
          defaultModel: DEFAULTS.model,
          conversation: { ...REQUEST_AS_PLAIN },
        });
        const before = await historySize(server.client, id);
        // The counters read before the followers start include the first turn.
        await sleep(FLUSH_MS);
        const clients = await of.clients.turn({
          id,
          message: 'Go on, word by word.',
          followers,
          onProgress,
          settleMs: SETTLE_MS,
          flushMs: FLUSH_MS,
          metricsUrl: server.metricsUrl,
        });
        const after = await historySize(server.client, id);
        await endConversation(server.client, id);
        return { written, clients, historyBytes: after.bytes - before.bytes, historyEvents: after.events - before.events };
      } finally {
        env.model.done(tag);
      }
    };

    const results = new Map<LiveDesign['name'], LiveDesignResult>(
      designs.map((design) => [
        design.name,
        { design, delays: [], turnMs: [], heartbeats: [], historyBytes: [], historyEvents: [], load: [], constants: constantsOf(design.tree?.root ?? env.hostRoot ?? REPO_ROOT, design.name === 'broker') },
      ]),
    );
    // One unmeasured turn each: connections, JIT.
    for (const design of designs) await turn(design, 0, true);
    for (let r = 0; r < options.turns; r++) {
      const order = designs.map((_, i) => designs[(i + r) % designs.length] as LiveDesign);
      for (const design of order) {
        const t = await turn(design, 0, true);
        const result = results.get(design.name);
        const own = t.clients.shown[0] ?? [];
        const delays = wordDelays(t.written, own);
        result?.delays.push(delays);
        result?.turnMs.push(t.clients.turnMs);
        result?.heartbeats.push(t.clients.requests.filter(([op]) => HEARTBEAT_OPERATIONS.includes(op)).reduce((sum, [, n]) => sum + n, 0));
        result?.historyBytes.push(t.historyBytes);
        result?.historyEvents.push(t.historyEvents);
        process.stderr.write(
          `  live-text ${r + 1}/${options.turns} ${design.name}: first ${delays.first.toFixed(0)} ms late, p50 ${delays.p50.toFixed(0)}, p90 ${delays.p90.toFixed(0)}, ` +
            `max ${delays.max.toFixed(0)}${delays.missing > 0 ? `, ${delays.missing} words never shown` : ''}; turn ${(t.clients.turnMs / 1000).toFixed(2)} s\n`,
        );
      }
    }
    const levels = [0, ...options.followerLevels];
    for (let r = 0; r < options.loadRepeat; r++) {
      for (const design of designs) {
        const result = results.get(design.name);
        if (!result) continue;
        const base = await turn(design, 0, false);
        const baseRequests = followerRequests(base.clients.requests);
        const baseByOp = new Map(base.clients.requests);
        for (const followers of levels.slice(1)) {
          const t = await turn(design, followers, false);
          const seconds = t.clients.windowMs / 1000;
          const perFollowerSecond = (followerRequests(t.clients.requests) - baseRequests) / followers / seconds;
          const perFollower = t.clients.shown.map((shown) => wordDelays(t.written, shown));
          let level = result.load.find((l) => l.followers === followers);
          if (!level) {
            level = { followers, perFollowerSecond: [], byOperation: [], p90: [], max: [], clientCores: [] };
            result.load.push(level);
          }
          level.perFollowerSecond.push(perFollowerSecond);
          level.byOperation = t.clients.requests
            .filter(([op]) => FOLLOWER_OPERATIONS.includes(op))
            .map(([op, n]): [string, number] => [op, (n - (baseByOp.get(op) ?? 0)) / followers / seconds])
            .filter(([, n]) => n > 0.05)
            .sort((a, b) => b[1] - a[1]);
          level.p90.push(median(perFollower.map((d) => d.p90)));
          level.max.push(Math.max(...perFollower.map((d) => d.max)));
          level.clientCores.push(t.clients.cpuMs / t.clients.windowMs);
          process.stderr.write(
            `  live-text load ${r + 1}/${options.loadRepeat} ${design.name} ×${followers}: ${perFollowerSecond.toFixed(2)} requests per follower per second ` +
              `(${followerRequests(t.clients.requests)} against ${baseRequests} without followers, ${seconds.toFixed(1)} s); followers' p90 ${level.p90.at(-1)?.toFixed(0)} ms\n`,
          );
        }
      }
    }
    return {
      results: [...results.values()],
      turns: options.turns,
      loadRepeat: options.loadRepeat,
      broker: broker?.origin ?? (process.env.BENCH_LIVE_URL === 'off' ? 'none (BENCH_LIVE_URL=off)' : 'none: no redis-server installed and no BENCH_LIVE_URL'),
    };
  } finally {
    await Promise.all([...clientsOf.values()].map(({ clients }) => clients.close()));
    await Promise.all(workers.map((w) => w.stop()));
    await broker?.stop();
  }
}

function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(0) : '—';
}

function medianOf(delays: WordDelays[], key: keyof WordDelays): number {
  return delays.length > 0 ? median(delays.map((d) => d[key])) : NaN;
}

/** `value / base` as `1.23×`, or — when either is missing. */
function ratio(value: number, base: number): string {
  return Number.isFinite(value) && Number.isFinite(base) && base > 0 ? `${(value / base).toFixed(2)}×` : '—';
}

/** The section's Markdown. */
export function liveTextReport(result: LiveTextResult): string[] {
  const byName = (name: LiveDesign['name']): LiveDesignResult | undefined => result.results.find((r) => r.design.name === name);
  const base = byName('default');
  const lines = [
    `The fake model streams a ${LIVE_WORDS}-word answer, one word every ${WORD_GAP_MS} ms (every event of its stream ${WORD_GAP_MS} ms after the one before, ` +
      'one text delta per word; the first word 0.3 s into the call), and records when it writes each word; the library\'s client, in a process of its own, ' +
      'sends the turn with `onProgress` (`ConversationClient.send`) and records when each word first shows in a `claude_text` event. A word is late by ' +
      `the time between the two (one machine, its monotonic clock). Medians over ${result.turns} turns per design, the designs taking turns; one worker ` +
      'per design on the dev server with eager dispatch. On a loaded machine every figure includes waits for a core (see the load average above): ' +
      'compare the designs within one run. Goals (issue 32): the default p90 ≤ 300 ms; the broker p90 ≤ 50 ms and its first word ≤ 100 ms.',
    '',
    ...result.results.map((r) => `- ${r.design.label}: ${r.constants}.`),
    `- The broker: ${result.broker}.`,
    '',
    '| design | first word late, ms | per word late: p50 | p90 | max | turn, s | p90 × default | goal |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  const baseP90 = medianOf(base?.delays ?? [], 'p90');
  for (const r of result.results) {
    const first = medianOf(r.delays, 'first');
    const p90 = medianOf(r.delays, 'p90');
    const goal = r.design.name === 'broker' ? (p90 <= 50 && first <= 100 ? 'met' : 'not met') : p90 <= 300 ? 'met' : 'not met';
    const missing = r.delays.reduce((sum, d) => sum + d.missing, 0);
    lines.push(
      `| ${r.design.label} | ${ms(first)} | ${ms(medianOf(r.delays, 'p50'))} | **${ms(p90)}** | ${ms(medianOf(r.delays, 'max'))} | ` +
        `${r.turnMs.length > 0 ? (median(r.turnMs) / 1000).toFixed(2) : '—'} | ${ratio(p90, baseP90)} | ${goal}${missing > 0 ? `; ${missing} words never shown` : ''} |`,
    );
  }
  const levels = [...new Set(result.results.flatMap((r) => r.load.map((l) => l.followers)))].sort((a, b) => a - b);
  if (levels.length > 0) {
    const top = levels.at(-1) ?? 0;
    const perSecond = (r: LiveDesignResult | undefined, n: number): number => {
      const level = r?.load.find((l) => l.followers === n);
      return level ? median(level.perFollowerSecond) : NaN;
    };
    lines.push(
      '',
      `The server's requests per follower per second while N \`ConversationClient.follow\` followers (all in the clients' process) follow one streamed turn: ` +
        `the dev server's frontend requests of the operations followers make (${FOLLOWER_OPERATIONS.join(', ')}) from the followers' start to their stop ` +
        `(${SETTLE_MS / 1000} s before the send, then the turn), less those of the same turn without followers, divided by N and by the followers' seconds ` +
        `(median of ${result.loadRepeat}; the workers' task-queue polls are left out: their number follows the SDK's poller scaling, not the followers). ` +
        'A follower reads the running calls every `DEFAULT_FOLLOW_POLL_MS` whether a call streams or not, so the figure holds for any following time; ' +
        'fewer than that at many followers means the server or the one clients\' process no longer keeps up: the followers\' own p90 and the clients\' ' +
        'process\'s CPU (in cores, over the followers\' time) tell which.',
      '',
      `| design | ${levels.map((n) => `${n} follower${n === 1 ? '' : 's'}`).join(' | ')} | × default at ${levels.join(' / ')} | per operation at ${top} | ` +
        `followers' p90 late at ${levels.join(' / ')}, ms | clients' CPU, cores |`,
      `|---|${levels.map(() => '---:|').join('')}---:|---|---:|---:|`,
    );
    for (const r of result.results) {
      const at = (n: number): LoadLevel | undefined => r.load.find((l) => l.followers === n);
      const each = (f: (l: LoadLevel) => string): string => levels.map((n) => { const l = at(n); return l ? f(l) : '—'; }).join(' / ');
      lines.push(
        `| ${r.design.label} | ${levels.map((n) => `**${Number.isFinite(perSecond(r, n)) ? perSecond(r, n).toFixed(2) : '—'}**`).join(' | ')} | ` +
          `${levels.map((n) => ratio(perSecond(r, n), perSecond(base, n))).join(' / ')} | ` +
          `${(at(top)?.byOperation ?? []).map(([op, n]) => `${op} ${n.toFixed(2)}`).join('; ')} | ` +
          `${each((l) => ms(median(l.p90)))} | ${each((l) => median(l.clientCores).toFixed(2))} |`,
      );
    }
  }
  lines.push(
    '',
    'What the streamed turn costs the server and the history (medians over the measured turns): the heartbeats its one Claude call sent ' +
      '(`RecordActivityTaskHeartbeat` requests, whoever follows), and the bytes and events the turn added to the history (heartbeats never enter it; ' +
      'a few bytes differ between turns where ids and timestamps are encoded).',
    '',
    '| design | heartbeats per Claude call | history bytes of the turn | × default | history events of the turn |',
    '|---|---:|---:|---:|---:|',
  );
  for (const r of result.results) {
    const med = (values: number[]): number => (values.length > 0 ? median(values) : NaN);
    lines.push(
      `| ${r.design.label} | ${ms(med(r.heartbeats))} | ${ms(med(r.historyBytes))} | ${ratio(med(r.historyBytes), med(base?.historyBytes ?? []))} | ${ms(med(r.historyEvents))} |`,
    );
  }
  return lines;
}
