/**
 * One streaming Claude call's side of the live channel: each piece of its answer and thinking goes
 * to the channel as it comes, while someone follows the conversation.
 *
 * While nobody does, nothing is published and what was published is forgotten: when a follower
 * comes (the channel notices within about a second), the next entry carries the text from its
 * start. So the stream's tail always holds a whole call from some entry on, and a follower that
 * joins late catches up from it (`src/live/follow-live.ts`).
 */
import type { LivePublishing } from './live-channel';
import type { LiveEntryKind } from './live-entry';

/** The call a publisher speaks for. */
export interface LiveCallId {
  workflowId: string;
  runId: string;
  activityId: string;
  attempt: number;
}

/** Publishes one call's text and thinking to the live channel (see the module comment). */
export class LiveCallPublisher {
  /** The whole text of each kind so far. */
  private readonly latest: Record<LiveEntryKind, string> = { text: '', thinking: '' };
  /** How much of each was published since someone follows. */
  private readonly sent: Record<LiveEntryKind, number> = { text: 0, thinking: 0 };
  private closed = false;
  /** One function, so that a check waited for by many pieces calls it once. */
  private readonly onChecked = (): void => this.flush();

  constructor(
    private readonly channel: LivePublishing,
    private readonly call: LiveCallId,
  ) {
    // Asked now, so that the answer is known by the first piece.
    channel.followed(call.workflowId);
  }

  /** The call's `kind` text is now `whole` (it only grows): publishes what is new, if anyone follows. */
  update(kind: LiveEntryKind, whole: string): void {
    this.latest[kind] = whole;
    this.flush();
  }

  /** Stops publishing (the call is over). */
  close(): void {
    this.closed = true;
  }

  private flush(): void {
    if (this.closed) return;
    // A check that ends with someone following publishes what waited meanwhile.
    if (!this.channel.followed(this.call.workflowId, this.onChecked)) {
      this.sent.text = 0;
      this.sent.thinking = 0;
      return;
    }
    // Thinking before the answer it leads to.
    for (const kind of ['thinking', 'text'] as const) {
      const whole = this.latest[kind];
      const offset = this.sent[kind];
      if (whole.length <= offset) continue;
      this.sent[kind] = whole.length;
      const { workflowId, runId, activityId, attempt } = this.call;
      this.channel.publish(workflowId, { runId, activityId, attempt, kind, offset, delta: whole.slice(offset) });
    }
  }
}
