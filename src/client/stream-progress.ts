/**
 * A conversation's progress as its running activities show it: the answer of a streaming Claude
 * call (its heartbeat details, `src/activities/publish-progress.ts`) and a tool call's retries
 * (attempt, last failure). Read from `DescribeWorkflowExecution`'s pending activities, every few
 * hundred milliseconds (`src/client/follow-conversation.ts`); nothing of it is in the history.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { readStreamDetails } from '../activities/claude-stream-details';
import type { ClaudeTextEvent, ConversationEvent, ToolProgressEvent } from './conversation-events';
import { decodeFirst, failureMessage } from './decode-payloads';

type PendingActivity = temporal.api.workflow.v1.IPendingActivityInfo;

interface Shown {
  attempt: number;
  /** Characters of the answer accounted for (shown or reported skipped). */
  length: number;
  /** What was shown, when it is the answer's exact beginning (nothing skipped). */
  prefix: string | undefined;
}

/** Turns pending activities into text and retry events, each piece of text once. */
export class StreamProgress {
  private readonly shown = new Map<string, Shown>();
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
        const text = this.text(callId, attempt, details.from, details.text);
        if (text) events.push(text);
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
   * The call ended (its history event came): what of its final `text` was not shown yet. After
   * this, nothing more of the call is shown (a describe answer read before the end may still come).
   */
  finish(callId: string, text: string | undefined): ClaudeTextEvent | undefined {
    this.ended.add(callId);
    const shown = this.shown.get(callId);
    this.shown.delete(callId);
    if (text === undefined) return undefined;
    const attempt = shown?.attempt ?? 1;
    if (!shown || shown.length === 0) return text === '' ? undefined : { type: 'claude_text', callId, attempt, text };
    const continues = shown.prefix !== undefined ? text.startsWith(shown.prefix) : text.length >= shown.length;
    if (!continues) return { type: 'claude_text', callId, attempt, text, restart: true };
    const rest = text.slice(shown.length);
    return rest === '' ? undefined : { type: 'claude_text', callId, attempt, text: rest };
  }

  private text(callId: string, attempt: number, from: number, window: string): ClaudeTextEvent | undefined {
    let shown = this.shown.get(callId);
    let restart = false;
    if (!shown || shown.attempt !== attempt) {
      restart = shown !== undefined;
      shown = { attempt, length: 0, prefix: '' };
      this.shown.set(callId, shown);
    }
    const end = from + window.length;
    if (end <= shown.length) return restart ? { type: 'claude_text', callId, attempt, text: '', restart } : undefined;
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
    return { type: 'claude_text', callId, attempt, text: piece, ...(restart ? { restart } : {}), ...(skipped > 0 ? { skipped } : {}) };
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
