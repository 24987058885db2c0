/**
 * Publishes a Claude call's answer while it streams, for the clients that follow a conversation
 * (`mcp-host chat`, `send`, `ConversationClient.follow`): through the activity's heartbeats, whose
 * details the server keeps with the running activity and hands to `DescribeWorkflowExecution`.
 * Nothing of it becomes a workflow history event while the call runs or when it completes, so
 * history bytes per round stay what they were. One exception, by Temporal's design: when an
 * attempt times out (its worker was lost), the server copies its last heartbeat details into the
 * timeout failure, which the history keeps (in the retry's `lastFailure`, or the final timeout
 * event); that is at most {@link STREAM_WINDOW_CHARS} of text the reply would have held anyway.
 *
 * With a live channel (`MCP_HOST_LIVE_URL`, src/live/), each piece also goes to it at once, for the
 * followers that read it, and the heartbeats drop to what failover needs: about one a second
 * ({@link LIVE_PUBLISH_GAP_MS}), still carrying the text for followers without the broker.
 */
import type { Context } from '@temporalio/activity';
import type { LiveCallPublisher } from '../live/live-call';
import type { LiveEntryKind } from '../live/live-entry';
import { streamDetails, STREAM_WINDOW_CHARS, type ClaudeStreamDetails } from './claude-stream-details';

/**
 * The shortest gap between two heartbeats carrying new text. The worker sends at most one
 * heartbeat per throttle interval anyway (`maxHeartbeatThrottleInterval`, src/worker/create-worker.ts);
 * this only spares converting details for every delta.
 */
export const PUBLISH_GAP_MS = 100;

/**
 * The gap between text heartbeats when a live channel carries the text (`MCP_HOST_LIVE_URL`): the
 * followers read the channel, so the heartbeats only have to say the worker is alive, which the
 * call's one-second keep-alive (src/activities/with-heartbeats.ts) does anyway, well within the
 * heartbeat timeout. Each still carries the answer so far, for a follower without the broker (it
 * then sees text once a second) and for a late follower's first look.
 */
export const LIVE_PUBLISH_GAP_MS = 1000;

/**
 * No heartbeat in a call's first half second. Most calls are over by then, and their answer
 * reaches followers with the result anyway; each heartbeat is a write on the server, and with many
 * conversations the server is what saturates first (one heartbeat per Claude call was 3 of a
 * conversation's 29 server requests in `npm run bench`'s throughput section). A live worker is
 * still seen alive well within the heartbeat timeout (3 s by default), and a long answer is
 * published from half a second on. Real Claude's first word comes after 0.5–1.5 s, mostly past it.
 * Measured at 250 ms (docs/BENCHMARKS.md, live text): the bench's first word, written 0.3 s into
 * the call, showed 164 ms late instead of 287, and every word's p90 stayed the same (278 / 285);
 * but the quick throughput section, side by side in one run, lost a tenth at C = 50 (557 → 504
 * conversations a minute, host p95 / floor p95 1.60× → 1.76×, dev server CPU 99 → 113 ms and 0 →
 * 2.3 heartbeats per conversation). So 500.
 */
export const QUIET_START_MS = 500;

/**
 * A streaming call's heartbeats, each carrying the answer so far (a window over its end) and the
 * attempt; and, given a live channel's publisher for the call, each piece at once to the channel.
 */
export class ClaudeStreamPublisher {
  private text = '';
  private thinking = '';
  private lastBeat = 0;
  private trailing: NodeJS.Timeout | undefined;
  /** Before this time (ms since the epoch), pieces wait: see {@link QUIET_START_MS}. */
  readonly quietUntil: number;

  constructor(
    private readonly context: Pick<Context, 'heartbeat' | 'info'>,
    private readonly gapMs: number = PUBLISH_GAP_MS,
    private readonly windowChars: number = STREAM_WINDOW_CHARS,
    quietMs: number = QUIET_START_MS,
    private readonly live?: LiveCallPublisher,
  ) {
    this.quietUntil = Date.now() + quietMs;
  }

  /** A piece of the answer, as Claude writes it: published within {@link PUBLISH_GAP_MS}, not before {@link QUIET_START_MS}. */
  append(delta: string): void {
    this.text += delta;
    this.toLive('text', this.text);
    this.beatSoon();
  }

  /** A piece of Claude's thinking (thinking on): published with the answer, in a window of its own. */
  appendThinking(delta: string): void {
    this.thinking += delta;
    this.toLive('thinking', this.thinking);
    this.beatSoon();
  }

  /** The live channel gets the piece at once, never failing or slowing the call. */
  private toLive(kind: LiveEntryKind, whole: string): void {
    try {
      this.live?.update(kind, whole);
    } catch {
      // The channel logs its own failures; the call goes on, and followers have the heartbeats.
    }
  }

  /**
   * The details every heartbeat of this call carries, also those only saying it is alive: a
   * heartbeat without details would erase the text the server holds. A retried attempt starts
   * empty, with its own attempt number, so a follower never takes an earlier attempt's text for its.
   */
  details(): ClaudeStreamDetails {
    return streamDetails(this.text, this.context.info.attempt, this.windowChars, this.thinking);
  }

  /** Heartbeats now, with the details. */
  heartbeat(): void {
    this.lastBeat = Date.now();
    this.context.heartbeat(this.details());
  }

  /**
   * Heartbeats now, or at the end of the gap after the last one or of the quiet start (coalescing
   * whatever comes meanwhile).
   */
  beatSoon(): void {
    const wait = Math.max(this.lastBeat + this.gapMs, this.quietUntil) - Date.now();
    if (wait <= 0) {
      this.heartbeat();
      return;
    }
    this.trailing ??= setTimeout(() => {
      this.trailing = undefined;
      this.heartbeat();
    }, wait);
  }

  /** Stops a pending heartbeat (the call is over). */
  close(): void {
    clearTimeout(this.trailing);
    this.trailing = undefined;
    this.live?.close();
  }
}
