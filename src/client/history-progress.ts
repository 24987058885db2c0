/**
 * A conversation's progress as its history records it: tool and Claude calls as they are scheduled
 * and end (with their arguments, durations, errors), and each awaited turn's result. The history is
 * read as it grows (`src/client/follow-conversation.ts`); only events of the workflow itself are
 * used, none added for the follower.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { ClaudeReply, ToolCallInput, ToolCallOutput } from '../activities/types';
import type { TurnResult } from '../conversation/types';
import { sendMessageUpdate } from '../workflows/definitions';
import type { ConversationEvent } from './conversation-events';
import { decodeFirst, failureMessage } from './decode-payloads';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** An error result's text shown in a progress line, at most this long. */
const ERROR_TEXT_CHARS = 200;

interface Scheduled {
  callId: string;
  kind: 'tool' | 'claude' | 'other';
  at: number;
  tool?: { toolUseId: string; server: string; tool: string };
  /** The event its scheduling showed. */
  started?: ConversationEvent;
}

function millis(event: HistoryEvent): number {
  const time = event.eventTime;
  if (!time) return Date.now();
  return Number(time.seconds ?? 0) * 1000 + Math.floor((time.nanos ?? 0) / 1e6);
}

function resultText(content: ToolCallOutput['content'] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
}

function replyText(reply: ClaudeReply | undefined): string | undefined {
  if (!reply || !Array.isArray(reply.content)) return undefined;
  return reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/**
 * Turns one run's history events into {@link ConversationEvent}s. Events before the follower
 * joined (`emit: false`) only build the state, so that the ends of calls already running are known.
 */
export class HistoryProgress {
  private readonly scheduled = new Map<string, Scheduled>();
  private readonly updates = new Map<string, string>();

  constructor(
    private readonly client: Client,
    private readonly runId: string,
  ) {}

  /** The start events of the calls scheduled and not ended yet (to show a late follower what runs). */
  running(): ConversationEvent[] {
    return [...this.scheduled.values()].flatMap((call) => (call.started ? [call.started] : []));
  }

  /**
   * What `event` shows, in order (possibly nothing). With `live` false (the history before the
   * follower joined) only the state is kept: no result is read.
   */
  async take(event: HistoryEvent, live = true): Promise<ConversationEvent[]> {
    const id = String(event.eventId ?? '');
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) return this.onScheduled(id, event, scheduled);
    const ended =
      event.activityTaskCompletedEventAttributes ??
      event.activityTaskFailedEventAttributes ??
      event.activityTaskTimedOutEventAttributes ??
      event.activityTaskCanceledEventAttributes;
    if (ended) {
      const key = String(ended.scheduledEventId ?? '');
      const call = this.scheduled.get(key);
      if (!call) return [];
      this.scheduled.delete(key);
      return live ? this.onEnded(event, call) : [];
    }
    const accepted = event.workflowExecutionUpdateAcceptedEventAttributes;
    if (accepted) {
      const updateId = accepted.acceptedRequest?.meta?.updateId ?? accepted.protocolInstanceId ?? '';
      this.updates.set(updateId, accepted.acceptedRequest?.input?.name ?? '');
      return [];
    }
    const completed = event.workflowExecutionUpdateCompletedEventAttributes;
    if (completed) {
      const messageId = completed.meta?.updateId ?? '';
      if (this.updates.get(messageId) !== sendMessageUpdate.name) return [];
      this.updates.delete(messageId);
      if (!live) return [];
      if (completed.outcome?.failure) {
        return [{ type: 'turn_finished', messageId, error: (await failureMessage(this.client, completed.outcome.failure)) ?? 'failed' }];
      }
      const result = (await decodeFirst(this.client, completed.outcome?.success?.payloads)) as TurnResult | undefined;
      return [{ type: 'turn_finished', messageId, ...(result !== undefined ? { result } : {}) }];
    }
    return [];
  }

  private async onScheduled(id: string, event: HistoryEvent, attributes: temporal.api.history.v1.IActivityTaskScheduledEventAttributes): Promise<ConversationEvent[]> {
    const name = attributes.activityType?.name ?? '';
    const callId = `${this.runId}/${attributes.activityId ?? id}`;
    const at = millis(event);
    if (name === 'callTool') {
      const input = (await decodeFirst(this.client, attributes.input?.payloads)) as ToolCallInput | undefined;
      const tool = { toolUseId: input?.toolUseId ?? '', server: input?.server ?? '', tool: input?.tool ?? '(unreadable)' };
      const started: ConversationEvent = { type: 'tool_started', callId, ...tool, ...(input?.arguments !== undefined ? { arguments: input.arguments } : {}), at: new Date(at) };
      this.scheduled.set(id, { callId, kind: 'tool', at, tool, started });
      return [started];
    }
    if (name === 'callClaude') {
      const summary = await decodeFirst(this.client, event.userMetadata?.summary ? [event.userMetadata.summary] : undefined);
      const started: ConversationEvent = { type: 'claude_started', callId, ...(typeof summary === 'string' ? { summary } : {}) };
      this.scheduled.set(id, { callId, kind: 'claude', at, started });
      return [started];
    }
    this.scheduled.set(id, { callId, kind: 'other', at });
    return [];
  }

  private async onEnded(event: HistoryEvent, call: Scheduled): Promise<ConversationEvent[]> {
    const durationMs = Math.max(0, millis(event) - call.at);
    const failure = event.activityTaskFailedEventAttributes?.failure ?? event.activityTaskTimedOutEventAttributes?.failure;
    let error: string | undefined;
    if (event.activityTaskCanceledEventAttributes) error = 'cancelled';
    else if (failure) error = (await failureMessage(this.client, failure)) ?? 'failed';
    const result = event.activityTaskCompletedEventAttributes?.result?.payloads;
    if (call.kind === 'tool' && call.tool) {
      if (error === undefined && result) {
        const output = (await decodeFirst(this.client, result)) as ToolCallOutput | undefined;
        if (output?.isError === true) error = cut(resultText(output.content), ERROR_TEXT_CHARS) || 'is_error';
      }
      return [{ type: 'tool_finished', callId: call.callId, ...call.tool, durationMs, ...(error !== undefined ? { error } : {}) }];
    }
    if (call.kind === 'claude') {
      const reply = result ? ((await decodeFirst(this.client, result)) as ClaudeReply | undefined) : undefined;
      const text = replyText(reply);
      return [
        {
          type: 'claude_finished',
          callId: call.callId,
          durationMs,
          ...(reply ? { stopReason: reply.stopReason } : {}),
          ...(text !== undefined ? { text } : {}),
          ...(error !== undefined ? { error } : {}),
        },
      ];
    }
    return [];
  }
}
