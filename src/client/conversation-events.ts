/**
 * What a follower of a conversation sees while it runs (`ConversationClient.follow`, `mcp-host
 * chat` and `send`): tool calls as they start and end, each Claude call, its answer's text (and
 * its thinking, with thinking on) as Claude writes it, and each awaited turn's result. `callId` names one activity of one run
 * (`<runId>/<activityId>`), the same for its start, its text and its end.
 */
import type { TurnResult } from '../conversation/types';

/**
 * A tool call was scheduled (the workflow asked for it). A fast tool's call (a local activity) is
 * recorded only when it has ended: its start and end then come together.
 */
export interface ToolStartedEvent {
  type: 'tool_started';
  callId: string;
  /** The `tool_use` it answers (empty for a fast call whose arguments were too long to match it by). */
  toolUseId: string;
  server: string;
  /** The MCP tool name. */
  tool: string;
  /** Undefined when they could not be read (a payload this client cannot decode). */
  arguments?: Record<string, unknown>;
  at: Date;
}

/** A tool call is being tried again (its previous attempt failed or its worker was lost). */
export interface ToolRetryingEvent {
  type: 'tool_retrying';
  callId: string;
  tool: string;
  attempt: number;
  /** Why the previous attempt ended. */
  lastFailure?: string;
}

/**
 * A tool call reports how it is getting on: the server's MCP progress notification
 * (`notifications/progress`: progress, total, message), or, for a tool run as an MCP task, the
 * task's status and status message. Sent when either changes, as the call's heartbeats carry them.
 */
export interface ToolProgressEvent {
  type: 'tool_progress';
  callId: string;
  tool: string;
  progress?: number;
  total?: number;
  message?: string;
  task?: { status: string; message?: string };
}

/** A tool call ended: with a result (`error` set when it is an `is_error` one) or failed. */
export interface ToolFinishedEvent {
  type: 'tool_finished';
  callId: string;
  toolUseId: string;
  server: string;
  tool: string;
  /** From its scheduling to its end (queueing and retries included). */
  durationMs: number;
  /** The `is_error` result's text, or the failure's message; absent when it succeeded. */
  error?: string;
}

/** A Claude call was scheduled. */
export interface ClaudeStartedEvent {
  type: 'claude_started';
  callId: string;
  /** `claude round 2 · after tool_use ×1 · claude-sonnet-4-6` (the Web UI's summary), when set. */
  summary?: string;
}

/**
 * A piece of a Claude call's answer, in order. `restart`: an attempt after a failed one streams
 * from the start (what was shown of the earlier attempt is void). `skipped`: this many characters
 * were written but not seen (a follower that joined late or fell behind); they are in the answer.
 */
export interface ClaudeTextEvent {
  type: 'claude_text';
  callId: string;
  attempt: number;
  text: string;
  restart?: boolean;
  skipped?: number;
}

/**
 * A piece of Claude's thinking (a conversation with thinking on), in order, as
 * {@link ClaudeTextEvent} has the answer's: `restart` and `skipped` alike. Never part of the
 * answer's text; a terminal shows it dimmed.
 */
export interface ClaudeThinkingEvent {
  type: 'claude_thinking';
  callId: string;
  attempt: number;
  text: string;
  restart?: boolean;
  skipped?: number;
}

/**
 * A Claude call ended; `text` is its answer's whole text (all text blocks joined) when readable, and
 * `thinking` its thinking (all thinking blocks joined) when it has any.
 */
export interface ClaudeFinishedEvent {
  type: 'claude_finished';
  callId: string;
  durationMs: number;
  stopReason?: string | null;
  text?: string;
  thinking?: string;
  error?: string;
}

/** An awaited turn (a `sendMessage` update) has its result, or failed. */
export interface TurnFinishedEvent {
  type: 'turn_finished';
  /** The update id: the turn's message id. */
  messageId: string;
  result?: TurnResult;
  error?: string;
}

/** One thing a follower sees. */
export type ConversationEvent =
  | ToolStartedEvent
  | ToolRetryingEvent
  | ToolProgressEvent
  | ToolFinishedEvent
  | ClaudeStartedEvent
  | ClaudeTextEvent
  | ClaudeThinkingEvent
  | ClaudeFinishedEvent
  | TurnFinishedEvent;
