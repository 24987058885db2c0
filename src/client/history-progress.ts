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
/** The marker a local activity's end is recorded as (a fast tool's call). */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

/** The fields of a local-activity marker's `data` detail this reads (written by the SDK's core). */
interface LocalActivityMarkerData {
  activity_type?: string;
  original_schedule_time?: { seconds?: number; nanos?: number } | null;
  complete_time?: { seconds?: number; nanos?: number } | null;
}

/** A `tool_use` of the latest Claude reply, to name the fast call that answers it. */
interface ReplyToolUse {
  id: string;
  input: string;
  claimed: boolean;
}

interface Scheduled {
  callId: string;
  kind: 'tool' | 'claude' | 'other';
  at: number;
  tool?: { toolUseId: string; server: string; tool: string };
  /** The event its scheduling showed. */
  started?: ConversationEvent;
}

function timestampMillis(time: { seconds?: number; nanos?: number } | null | undefined): number | undefined {
  if (!time) return undefined;
  return Number(time.seconds ?? 0) * 1000 + Math.floor((time.nanos ?? 0) / 1e6);
}

/**
 * A fast call's summary (`src/workflows/progress-text.ts`: `TOOL ARGUMENTS · SERVER`) read back:
 * a local activity's marker does not record the call's input, its summary does. The arguments
 * are undefined when they were clipped.
 */
function parseToolSummary(summary: string): { tool: string; server: string; arguments?: Record<string, unknown>; argumentsText: string } {
  const at = summary.lastIndexOf(' · ');
  const server = at >= 0 ? summary.slice(at + 3) : '';
  const call = at >= 0 ? summary.slice(0, at) : summary;
  const space = call.indexOf(' ');
  const tool = space >= 0 ? call.slice(0, space) : call;
  const argumentsText = space >= 0 ? call.slice(space + 1) : '';
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { tool, server, arguments: parsed as Record<string, unknown>, argumentsText };
  } catch {
    // clipped: shown without arguments
  }
  return { tool, server, argumentsText };
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

/** The reply's thinking (its thinking blocks joined, as the stream publishes them), or undefined when it has none. */
function replyThinking(reply: ClaudeReply | undefined): string | undefined {
  if (!reply || !Array.isArray(reply.content)) return undefined;
  const thinking = reply.content.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : []));
  return thinking.length > 0 ? thinking.join('') : undefined;
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
  private replyToolUses: ReplyToolUse[] = [];

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
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName === LOCAL_ACTIVITY_MARKER) return live ? this.onLocalActivity(id, event, marker) : [];
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
      const thinking = replyThinking(reply);
      this.replyToolUses = Array.isArray(reply?.content)
        ? reply.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: block.id, input: JSON.stringify(block.input), claimed: false }] : []))
        : [];
      return [
        {
          type: 'claude_finished',
          callId: call.callId,
          durationMs,
          ...(reply ? { stopReason: reply.stopReason } : {}),
          ...(text !== undefined ? { text } : {}),
          ...(thinking !== undefined ? { thinking } : {}),
          ...(error !== undefined ? { error } : {}),
        },
      ];
    }
    return [];
  }

  /**
   * A fast tool's call (a local activity) shows only when it has ended, as one marker: its start and
   * its end at once, read from the marker (times, result or failure) and its summary (tool, server,
   * arguments). Its `tool_use` id is that of the latest reply's `tool_use` with the same arguments
   * (empty when they were clipped from the summary).
   */
  private async onLocalActivity(id: string, event: HistoryEvent, marker: temporal.api.history.v1.IMarkerRecordedEventAttributes): Promise<ConversationEvent[]> {
    const data = (await decodeFirst(this.client, marker.details?.data?.payloads)) as LocalActivityMarkerData | undefined;
    if (data?.activity_type !== 'callTool') return [];
    const summary = await decodeFirst(this.client, event.userMetadata?.summary ? [event.userMetadata.summary] : undefined);
    const call = parseToolSummary(typeof summary === 'string' ? summary : '(unreadable)');
    const use = this.replyToolUses.find((u) => !u.claimed && u.input === call.argumentsText);
    if (use) use.claimed = true;
    const tool = { toolUseId: use?.id ?? '', server: call.server, tool: call.tool };
    const end = timestampMillis(data.complete_time) ?? millis(event);
    const start = timestampMillis(data.original_schedule_time) ?? end;
    const callId = `${this.runId}/${id}`;
    let error = marker.failure ? ((await failureMessage(this.client, marker.failure)) ?? 'failed') : undefined;
    if (error === undefined) {
      const output = (await decodeFirst(this.client, marker.details?.result?.payloads)) as ToolCallOutput | undefined;
      if (output?.isError === true) error = cut(resultText(output.content), ERROR_TEXT_CHARS) || 'is_error';
    }
    return [
      { type: 'tool_started', callId, ...tool, ...(call.arguments !== undefined ? { arguments: call.arguments } : {}), at: new Date(start) },
      { type: 'tool_finished', callId, ...tool, durationMs: Math.max(0, end - start), ...(error !== undefined ? { error } : {}) },
    ];
  }
}
