/**
 * The live-text section's clients, in a process of their own (so that 100 followers neither slow
 * the fake model's clock in the benchmark's process nor share its event loop): the library as an
 * application uses it, `ConversationClient.connect()` from the environment (TEMPORAL_ADDRESS,
 * MCP_HOST_TASK_QUEUE, and MCP_HOST_LIVE_URL for the broker design), each follower a
 * `ConversationClient.follow`, the sender `ConversationClient.send`, with `onProgress` when it
 * follows its own turn. Every `claude_text` event is recorded with the answer's length shown so
 * far. Started by {@link startLiveClients} (bench/perf/live-follower.cjs); `BENCH_SRC_ROOT` names
 * another tree whose client library it runs (the "before" design, `BENCH_BEFORE_ROOT`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as ConversationClientModule from '../../src/client/conversation-client';
import type { ConversationClient } from '../../src/client/conversation-client';
import type { ConversationEvent } from '../../src/client/conversation-events';
import { machineNow, type TextMark } from './live-answer';
import { requestsBetween, serverRequests } from './server-requests';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** One measured turn: who follows it, and how it is sent. */
export interface LiveTurnRequest {
  /** The conversation (its first turn done), and the measured turn's message. */
  id: string;
  message: string;
  /** `ConversationClient.follow` followers, started before the send. */
  followers: number;
  /** The sender follows its own turn (`send` with `onProgress`), as `mcp-host send` on a terminal does. */
  onProgress: boolean;
  /** Followers run this long before the send (their first reads done). */
  settleMs: number;
  /** After the followers stop, wait this long before reading the server's counters (they are exported periodically). */
  flushMs: number;
  /** The dev server's Prometheus endpoint. */
  metricsUrl: string;
}

/** What the clients saw of one turn. */
export interface LiveTurnResult {
  /** From the send to its result, ms. */
  turnMs: number;
  /** The sender's own progress (with `onProgress`), then each follower's: the answer's length shown at each `claude_text` event. */
  shown: TextMark[][];
  /** From the followers' start to their stop (the send alone without followers), ms. */
  windowMs: number;
  /** The clients' process's CPU time over that window, ms (user + system): near the window's length, it is what limits the followers. */
  cpuMs: number;
  /** The server's frontend requests from before the followers started to after they stopped (flushed), by operation. */
  requests: Array<[string, number]>;
}

/** Records the answer's growing length, as a follower shows it. */
function recorder(into: TextMark[]): (event: ConversationEvent) => void {
  let length = 0;
  return (event) => {
    if (event.type !== 'claude_text') return;
    // A restart voids what was shown (it should not happen here: nothing fails).
    length = (event.restart === true ? 0 : length) + (event.skipped ?? 0) + event.text.length;
    into.push([machineNow(), length]);
  };
}

async function measure(client: ConversationClient, request: LiveTurnRequest): Promise<LiveTurnResult> {
  const before = await serverRequests(request.metricsUrl);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const marks: TextMark[][] = Array.from({ length: request.followers }, () => []);
  const followers = marks.map((into) => client.follow(request.id, recorder(into)));
  if (request.followers > 0) await sleep(request.settleMs);
  const own: TextMark[] = [];
  const sent = performance.now();
  const result = await client.send(request.id, request.message, request.onProgress ? { onProgress: recorder(own) } : {});
  const turnMs = performance.now() - sent;
  if (result.status !== 'completed') throw new Error(`live turn ${request.id}: ${result.status} ${result.error ?? ''}`);
  // The followers read the turn's end from the history; give them that long poll before stopping them.
  if (request.followers > 0) await sleep(200);
  await Promise.all(followers.map((f) => f.stop()));
  const windowMs = performance.now() - (request.followers > 0 ? started : sent);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  await sleep(request.flushMs);
  const requests = requestsBetween(before, await serverRequests(request.metricsUrl));
  return { turnMs, shown: request.onProgress ? [own, ...marks] : marks, windowMs, cpuMs, requests };
}

/** The child's side: connect (with the library of `BENCH_SRC_ROOT`'s tree, default this one), then measure each turn asked for. */
export async function serveLiveClients(): Promise<void> {
  const srcRoot = path.resolve(process.env.BENCH_SRC_ROOT || REPO_ROOT);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the measured tree is chosen at run time
  const library = require(path.join(srcRoot, 'src/client/conversation-client')) as typeof ConversationClientModule;
  const client = await library.ConversationClient.connect();
  const send = (message: unknown): void => void process.send?.(message);
  process.on('message', (message: { close?: true; turn?: LiveTurnRequest }) => {
    if (message.close === true) {
      void client.close().finally(() => process.exit(0));
      return;
    }
    if (!message.turn) return;
    measure(client, message.turn).then(
      (result) => send({ result }),
      (error: unknown) => send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
  send({ ready: true });
}

/** The clients' process, as the benchmark drives it. */
export interface LiveClients {
  turn(request: LiveTurnRequest): Promise<LiveTurnResult>;
  close(): Promise<void>;
}

type Reply = { ready?: true; result?: LiveTurnResult; error?: string };

/**
 * Starts the clients' process against `address`, task queue `taskQueue`, with `env` added (the
 * design's settings), running the client library of the tree at `srcRoot` (default this one).
 */
export async function startLiveClients(address: string, taskQueue: string, env: Record<string, string>, srcRoot?: string): Promise<LiveClients> {
  const child: ChildProcess = fork(path.join(__dirname, 'live-follower.cjs'), [], {
    cwd: REPO_ROOT,
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: 'default', MCP_HOST_TASK_QUEUE: taskQueue, BENCH_SRC_ROOT: srcRoot ?? '', ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`the live-text clients' process exited (${String(code)})`));
      child.once('exit', onExit);
      child.once('message', (message: Reply) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  const ready = await next();
  if (ready.error !== undefined) throw new Error(`the live-text clients' process did not start: ${ready.error}`);
  return {
    async turn(request) {
      child.send({ turn: request });
      const reply = await next();
      if (reply.error !== undefined || reply.result === undefined) throw new Error(`the live-text clients failed a turn: ${reply.error ?? 'no answer'}`);
      return reply.result;
    },
    async close() {
      if (child.exitCode !== null) return;
      child.send({ close: true });
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(kill);
    },
  };
}
