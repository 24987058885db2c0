/**
 * Follows a conversation while it runs, from these sources, none of which adds anything to its
 * history:
 * - its history, read as it grows (a long poll, `waitNewEvent`): tool and Claude calls as they are
 *   scheduled and end, and each awaited turn's result (`src/client/history-progress.ts`);
 * - its running activities (`DescribeWorkflowExecution`, every `pollMs`): the answer of a Claude
 *   call as it streams, from the call's heartbeat details, and a tool call's retries
 *   (`src/client/stream-progress.ts`).
 * - with a live channel (`MCP_HOST_LIVE_URL`, src/live/), the broker's stream of the conversation:
 *   each piece of a Claude call's answer and thinking as the worker publishes it
 *   (`src/live/follow-live.ts`), merged with the heartbeats' windows by offset. The describe poll
 *   then runs every {@link LIVE_FOLLOW_POLL_MS}: it still brings tool retries and progress, and
 *   the text when the broker cannot.
 * A Claude call's text and thinking show after its start (`claude_started`), whichever source is
 * quicker than the history.
 * Across continue-as-new it follows the next run; it ends when the conversation closes or when
 * stopped. What already happened when it joins is not shown, except the calls still running.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveFollowing } from '../live/live-channel';
import type { LiveEntry } from '../live/live-entry';
import { followLive } from '../live/follow-live';
import type { ConversationEvent } from './conversation-events';
import { HistoryProgress } from './history-progress';
import { StreamProgress } from './stream-progress';

/** How to follow. */
export interface FollowOptions {
  /** Stops following. */
  signal?: AbortSignal;
  /** How often the running calls are read, in ms (default {@link DEFAULT_FOLLOW_POLL_MS}: 125; {@link LIVE_FOLLOW_POLL_MS}: 1000 with a live channel). */
  pollMs?: number;
  /**
   * The live channel to read the answer from as the worker publishes it (`ConversationClient.connect`
   * and the CLI open it from `MCP_HOST_LIVE_URL`); without one, the heartbeats only.
   */
  live?: LiveFollowing;
  /**
   * Whether the follower's pauses keep the process running (default true). The CLI sets false: a
   * command that ends without stopping its follower (its connection closed) still exits.
   */
  keepAlive?: boolean;
}

/** A follower that runs until `stop()` or the conversation's end. */
export interface Follower {
  /** Resolves when following has ended (stopped, or the conversation closed). */
  readonly done: Promise<void>;
  /** Stops following; resolves once nothing of it runs any more. */
  stop(): Promise<void>;
}

/**
 * How often a follower reads the running calls (`DescribeWorkflowExecution`), by default: the
 * streaming answer's text shows at most this long after it reached the server. Each follower asks
 * the server ~9 times a second (8 reads and the history's long poll), from ~5 at 250 ms; a word
 * shows p90 278 ms late against 297 at 150 ms and 254 at 100 ms (with the worker's heartbeat
 * throttle at 150 ms, the quiet start at 250 in that sweep; ~500 at 250/250; `npm run bench -- --only=live-text`, docs/BENCHMARKS.md).
 */
export const DEFAULT_FOLLOW_POLL_MS = 125;

/**
 * The describe poll's period with a live channel: the answer comes from the broker, so the poll is
 * left with a tool call's retries and progress (a second late at most, against a tool's seconds)
 * and the fallback when the broker is away; a quarter of the server requests of a follower.
 */
export const LIVE_FOLLOW_POLL_MS = 1000;

const CLOSED = new Set<temporal.api.enums.v1.EventType>([
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
  temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
]);

/**
 * Follows conversation `workflowId`, calling `onEvent` for each thing it does from now on (a
 * conversation that does not exist yet is waited for: a follower may start before the start).
 */
export function followConversation(client: Client, workflowId: string, onEvent: (event: ConversationEvent) => void, options: FollowOptions = {}): Follower {
  const controller = new AbortController();
  const signal = controller.signal;
  const stopOnOuter = (): void => controller.abort();
  if (options.signal?.aborted === true) controller.abort();
  options.signal?.addEventListener('abort', stopOnOuter);
  const namespace = client.options.namespace;
  const pollMs = options.pollMs ?? (options.live ? LIVE_FOLLOW_POLL_MS : DEFAULT_FOLLOW_POLL_MS);
  const pause = (): Promise<unknown> => sleep(pollMs, undefined, { signal, ref: options.keepAlive !== false }).catch(() => undefined);
  const stream = new StreamProgress(client);
  const toolNames = new Map<string, string>();

  /** Claude calls whose start was shown: a call's text and thinking show after its start. */
  const startedCalls = new Set<string>();
  /**
   * Text and thinking that came before their call's start (the broker, or the describe poll of a
   * follower that joins mid-call, is quicker than the history): shown right after it.
   */
  const early = new Map<string, ConversationEvent[]>();

  const emit = (event: ConversationEvent): void => {
    if (signal.aborted) return;
    if ((event.type === 'claude_text' || event.type === 'claude_thinking') && !startedCalls.has(event.callId)) {
      const waiting = early.get(event.callId);
      if (waiting) waiting.push(event);
      else early.set(event.callId, [event]);
      return;
    }
    if (event.type === 'tool_started') toolNames.set(event.callId, event.tool);
    if (event.type === 'claude_finished') {
      // A call whose start never showed: what it streamed first, then the rest.
      const waiting = early.get(event.callId) ?? [];
      early.delete(event.callId);
      startedCalls.delete(event.callId);
      waiting.forEach((piece) => safely(onEvent, piece));
      // What the stream had not shown yet of the thinking and the answer, before its end.
      const thought = stream.finishThinking(event.callId, event.thinking);
      if (thought) safely(onEvent, thought);
      const rest = stream.finish(event.callId, event.text);
      if (rest) safely(onEvent, rest);
    }
    safely(onEvent, event);
    if (event.type === 'claude_started') {
      startedCalls.add(event.callId);
      const waiting = early.get(event.callId) ?? [];
      early.delete(event.callId);
      waiting.forEach((piece) => safely(onEvent, piece));
    }
  };

  /** A piece from the live channel, through the same merge as the heartbeats' windows. */
  const takeLive = (entry: LiveEntry): void => {
    const event = stream.takeLive(entry);
    if (event) emit(event);
  };

  // One signal per call: the SDK adds a listener to the signal of each call and never removes it.
  const call = async <T>(rpc: () => Promise<T>): Promise<T> => {
    const one = new AbortController();
    const abort = (): void => one.abort();
    signal.addEventListener('abort', abort);
    try {
      return await client.withAbortSignal(one.signal, rpc);
    } finally {
      signal.removeEventListener('abort', abort);
    }
  };
  const describe = (): Promise<temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse> =>
    call(() => client.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId } }));

  /** Retries `rpc` while it fails transiently (the conversation not started yet, a lost connection). */
  const retrying = async <T>(rpc: () => Promise<T>): Promise<T | undefined> => {
    for (;;) {
      if (signal.aborted) return undefined;
      try {
        return await rpc();
      } catch {
        // Not found: not started yet; anything else (a lost connection, a deadline): try again.
        if (signal.aborted) return undefined;
        await pause();
      }
    }
  };

  const followHistory = async (): Promise<void> => {
    const first = await retrying(describe);
    let runId = first?.workflowExecutionInfo?.execution?.runId ?? undefined;
    // Events up to here happened before the follower joined.
    let joinedAfter = Number(first?.workflowExecutionInfo?.historyLength ?? 0);
    while (runId !== undefined && !signal.aborted) {
      const progress = new HistoryProgress(client, runId);
      let token: Uint8Array | undefined;
      let caughtUp = joinedAfter === 0;
      let next: string | undefined;
      let closed = false;
      for (;;) {
        const run = runId;
        const page = await retrying(() =>
          call(() =>
            client.workflowService.getWorkflowExecutionHistory({
              namespace,
              execution: { workflowId, runId: run },
              waitNewEvent: true,
              skipArchival: true,
              ...(token ? { nextPageToken: token } : {}),
            }),
          ),
        );
        if (!page) return;
        for (const event of page.history?.events ?? []) {
          const live = Number(event.eventId ?? 0) > joinedAfter;
          const shown = await progress.take(event, live);
          if (live && !caughtUp) {
            caughtUp = true;
            // Joined while calls ran: they show as started (their ends will follow).
            progress.running().filter((started) => !shown.includes(started)).forEach(emit);
          }
          if (live) shown.forEach(emit);
          next = event.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? next;
          if (event.eventType !== null && event.eventType !== undefined && CLOSED.has(event.eventType)) closed = true;
        }
        if (!caughtUp && Number(page.history?.events?.at(-1)?.eventId ?? 0) >= joinedAfter) {
          caughtUp = true;
          progress.running().forEach(emit);
        }
        token = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
        if (!token) break;
      }
      if (closed && next === undefined) return;
      runId = next;
      joinedAfter = 0;
    }
  };

  const followRunning = async (): Promise<void> => {
    while (!signal.aborted) {
      try {
        const described = await describe();
        const runId = described.workflowExecutionInfo?.execution?.runId ?? '';
        const events = await stream.take(runId, described.pendingActivities ?? [], (callId) => toolNames.get(callId));
        events.forEach(emit);
      } catch {
        // Not started yet, or a lost connection: the next poll tries again.
      }
      await pause();
    }
  };

  /** The Claude calls running now, by `callId` and attempt: whose entries of the live stream's tail to show. */
  const runningCalls = async (): Promise<(entry: LiveEntry) => boolean> => {
    try {
      const described = await describe();
      const runId = described.workflowExecutionInfo?.execution?.runId ?? '';
      const calls = new Set(
        (described.pendingActivities ?? [])
          .filter((activity) => activity.activityType?.name === 'callClaude')
          .map((activity) => `${runId}/${activity.activityId ?? ''}#${activity.attempt ?? 1}`),
      );
      return (entry) => calls.has(`${entry.runId}/${entry.activityId}#${entry.attempt}`);
    } catch {
      // Not started yet (or unreachable): nothing of the tail is shown, what comes next is.
      return () => false;
    }
  };

  const running = followRunning();
  const live = options.live
    ? followLive(options.live, workflowId, {
        signal,
        keepAlive: options.keepAlive !== false,
        running: runningCalls,
        onEntry: takeLive,
      })
    : Promise.resolve();
  const done = followHistory()
    .catch(() => undefined)
    .finally(() => controller.abort())
    .then(() => Promise.all([running, live]))
    .then(() => undefined)
    .finally(() => options.signal?.removeEventListener('abort', stopOnOuter));
  return {
    done,
    stop: async (): Promise<void> => {
      controller.abort();
      await done;
    },
  };
}

function safely(onEvent: (event: ConversationEvent) => void, event: ConversationEvent): void {
  try {
    onEvent(event);
  } catch {
    // A listener's failure is its own; following goes on.
  }
}
