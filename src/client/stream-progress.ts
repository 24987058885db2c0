/**
 * A conversation's progress as its running activities show it: the answer of a streaming Claude
 * call and its thinking (its heartbeat details, `src/activities/publish-progress.ts`) and a tool call's retries
 * (attempt, last failure). Read from `DescribeWorkflowExecution`'s pending activities, every few
 * hundred milliseconds (`src/client/follow-conversation.ts`); nothing of it is in the history.
 *
 * With a live channel (src/live/), the same calls' pieces also come one by one from the broker
 * ({@link StreamProgress.takeLive}); both sources go through the same merge by offset, so each
 * character shows once whichever comes first.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { readStreamDetails } from '../activities/claude-stream-details';
import type { LiveEntry } from '../live/live-entry';
import type { ClaudeTextEvent, ClaudeThinkingEvent, ConversationEvent, ToolProgressEvent } from './conversation-events';
import { decodeFirst, failureMessage } from './decode-payloads';

type PendingActivity = temporal.api.workflow.v1.IPendingActivityInfo;

interface Shown {
  attempt: number;
  /** Characters of the text accounted for (shown or reported skipped). */
  length: number;
  /** What was shown, when it is the text's exact beginning (nothing skipped). */
  prefix: string | undefined;
}

/** A piece of a growing text to show: its characters, whether it starts over, how many were missed. */
interface Piece {
  attempt: number;
  text: string;
  restart?: boolean;
  skipped?: number;
}

/** What of one growing text per call (the answer, or the thinking) was shown: each character once. */
class ShownTexts {
  private readonly shown = new Map<string, Shown>();

  /** The part of `window` (the call's text from `from` on, of attempt `attempt`) not shown yet. */
  take(callId: string, attempt: number, from: number, window: string): Piece | undefined {
    let shown = this.shown.get(callId);
    let restart = false;
    // An earlier attempt's text, late (from the live channel, say): that attempt is over.
    if (shown && attempt < shown.attempt) return undefined;
    if (!shown || shown.attempt !== attempt) {
      restart = shown !== undefined;
      shown = { attempt, length: 0, prefix: '' };
      this.shown.set(callId, shown);
    }
    const end = from + window.length;
    if (end <= shown.length) return restart ? { attempt, text: '', restart } : undefined;
    let skipped = 0;
    let piece: string;
    if (from > shown.length) {
      skipped = from - shown.length;
      piece = window;
      shown.prefix = undefined;
    } else {
      piece = window.slice(shown.length - from);
    }
    shown.length = end;
    if (shown.prefix !== undefined) shown.prefix += piece;
    return { attempt, text: piece, ...(restart ? { restart } : {}), ...(skipped > 0 ? { skipped } : {}) };
  }

  /** The call ended with the whole `text`: what of it was not shown yet; then the call is forgotten. */
  finish(callId: string, text: string | undefined): Piece | undefined {
    const shown = this.shown.get(callId);
    this.shown.delete(callId);
    if (text === undefined) return undefined;
    const attempt = shown?.attempt ?? 1;
    if (!shown || shown.length === 0) return text === '' ? undefined : { attempt, text };
    const continues = shown.prefix !== undefined ? text.startsWith(shown.prefix) : text.length >= shown.length;
    if (!continues) return { attempt, text, restart: true };
    const rest = text.slice(shown.length);
    return rest === '' ? undefined : { attempt, text: rest };
  }
}

/** Turns pending activities into text, thinking and retry events, each piece of text once. */
export class StreamProgress {
  private readonly answers = new ShownTexts();
  private readonly thoughts = new ShownTexts();
  private readonly ended = new Set<string>();
  private readonly toolAttempts = new Map<string, number>();
  /** The last progress shown of each tool call, as JSON. */
  private readonly toolProgress = new Map<string, string | undefined>();

  constructor(private readonly client: Client) {}

  /** What the pending activities of run `runId` show that was not shown yet. */
  async take(runId: string, pending: readonly PendingActivity[], toolName: (callId: string) => string | undefined): Promise<ConversationEvent[]> {
    const events: ConversationEvent[] = [];
    for (const activity of pending) {
      const callId = `${runId}/${activity.activityId ?? ''}`;
      if (this.ended.has(callId)) continue;
      const attempt = activity.attempt ?? 1;
      const name = activity.activityType?.name;
      if (name === 'callClaude') {
        const details = readStreamDetails(await decodeFirst(this.client, activity.heartbeatDetails?.payloads));
        // Details of an earlier attempt stay until the new one heartbeats: not this attempt's text.
        if (!details || details.attempt !== attempt || this.ended.has(callId)) continue;
        // Thinking comes before the answer it leads to.
        const thought = details.thinking ? this.thoughts.take(callId, attempt, details.thinking.from, details.thinking.text) : undefined;
        if (thought) events.push({ type: 'claude_thinking', callId, ...thought });
        const text = this.answers.take(callId, attempt, details.from, details.text);
        if (text) events.push({ type: 'claude_text', callId, ...text });
      } else if (name === 'callTool') {
        if (attempt > (this.toolAttempts.get(callId) ?? 1)) {
          this.toolAttempts.set(callId, attempt);
          const lastFailure = await failureMessage(this.client, activity.lastFailure);
          events.push({ type: 'tool_retrying', callId, tool: toolName(callId) ?? 'tool', attempt, ...(lastFailure !== undefined ? { lastFailure } : {}) });
        }
        const progress = toolProgressOf(await decodeFirst(this.client, activity.heartbeatDetails?.payloads));
        const key = progress === undefined ? undefined : JSON.stringify(progress);
        if (progress !== undefined && key !== this.toolProgress.get(callId)) {
          this.toolProgress.set(callId, key);
          events.push({ type: 'tool_progress', callId, tool: toolName(callId) ?? 'tool', ...progress });
        }
      }
    }
    return events;
  }

  /**
   * A piece from the live channel (`src/live/follow-live.ts`): what of it was not shown yet, as an
   * event (none for a call that has ended, or an earlier attempt's piece).
   */
  takeLive(entry: LiveEntry): ClaudeTextEvent | ClaudeThinkingEvent | undefined {
    const callId = `${entry.runId}/${entry.activityId}`;
    if (this.ended.has(callId)) return undefined;
    if (entry.kind === 'thinking') {
      const thought = this.thoughts.take(callId, entry.attempt, entry.offset, entry.delta);
      return thought ? { type: 'claude_thinking', callId, ...thought } : undefined;
    }
    const text = this.answers.take(callId, entry.attempt, entry.offset, entry.delta);
    return text ? { type: 'claude_text', callId, ...text } : undefined;
  }

  /**
   * The call's thinking as its result has it (`thinking`: all its thinking blocks joined): what was
   * not shown yet. Called before {@link finish}, which ends the call.
   */
  finishThinking(callId: string, thinking: string | undefined): ClaudeThinkingEvent | undefined {
    if (this.ended.has(callId)) return undefined;
    const rest = this.thoughts.finish(callId, thinking);
    return rest ? { type: 'claude_thinking', callId, ...rest } : undefined;
  }

  /**
   * The call ended (its history event came): what of its final `text` was not shown yet. After
   * this, nothing more of the call is shown (a describe answer read before the end may still come).
   */
  finish(callId: string, text: string | undefined): ClaudeTextEvent | undefined {
    this.ended.add(callId);
    this.thoughts.finish(callId, undefined);
    const rest = this.answers.finish(callId, text);
    return rest ? { type: 'claude_text', callId, ...rest } : undefined;
  }
}

/** What a tool call's heartbeat details say of its progress (src/activities/tool-attempt-budget.ts), if anything. */
function toolProgressOf(details: unknown): Omit<ToolProgressEvent, 'type' | 'callId' | 'tool'> | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const { progress, taskStatus } = details as { progress?: unknown; taskStatus?: unknown };
  const out: Omit<ToolProgressEvent, 'type' | 'callId' | 'tool'> = {};
  if (typeof progress === 'object' && progress !== null) {
    const p = progress as { progress?: unknown; total?: unknown; message?: unknown };
    if (typeof p.progress === 'number') out.progress = p.progress;
    if (typeof p.total === 'number') out.total = p.total;
    if (typeof p.message === 'string') out.message = p.message;
  }
  if (typeof taskStatus === 'object' && taskStatus !== null) {
    const t = taskStatus as { status?: unknown; message?: unknown };
    if (typeof t.status === 'string') out.task = { status: t.status, ...(typeof t.message === 'string' ? { message: t.message } : {}) };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
