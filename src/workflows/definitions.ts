/**
 * Every message the conversation workflow answers, defined once and shared by the workflow, the
 * worker's activities, the client and the tests (house rule 3).
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ContextStrategy } from '../context/context-strategy';
import type { ContextSummary } from '../context/context-summary';
import type { ConversationStatus, MessageParam, Tool, ToolRouteEntry, TurnResult } from '../conversation/types';
import type { ApprovalRequest, PendingApproval } from '../approval/pending-approvals';
import type { InputResponseAnswer, InputResponseRequest, ServerInputRequest } from '../input/input-requests';
import type { ServerInputResponses } from '../input/input-responses';
import type { TurnContent } from '../conversation/turn-content';
import type { Thinking } from '../conversation/thinking';
import type { Budget } from '../conversation/budget';

export type { ApprovalRequest, PendingApproval } from '../approval/pending-approvals';
export type { InputResponseAnswer, InputResponseRequest, PendingInput } from '../input/input-requests';

/** What a sender may add to a user turn sent by signal. */
export interface UserMessageMeta {
  /**
   * The sender's id for this message: the conversation takes a message id once, so a signal
   * repeated after the conversation continued as new is not a second turn (the clients set one).
   */
  messageId?: string;
  /** Resources attached to the turn and a prompt run as it (src/conversation/turn-content.ts). */
  content?: TurnContent;
}

/** A new user turn; queued while another turn runs, processed in order. */
export const userMessageSignal = defineSignal<[text: string, meta?: UserMessageMeta]>('userMessage');

/**
 * A new user turn that returns that turn's answer when it is done. Empty text is refused. The
 * update's id is the turn's identity: the same id again (a client's retry, even one that reaches
 * the conversation after it continued as new) gets the same turn's result, not a new turn. The
 * optional `content` carries attached resources and a prompt (then the text may be empty).
 */
export const sendMessageUpdate = defineUpdate<TurnResult, [text: string, content?: TurnContent]>('sendMessage');

/** What `cancelTurn` did: the cancelled turn's result, or null when no turn was running. */
export interface CancelTurnResult {
  turn: TurnResult | null;
}

/**
 * Cancels the running turn, and only it: its Claude or tool calls are cancelled, every tool_use
 * it asked for is answered, it ends with status `cancelled`, and the turns queued after it run.
 * Returns once the turn has ended.
 */
export const cancelTurnUpdate = defineUpdate<CancelTurnResult>('cancelTurn');

/**
 * Sets the context strategy of a running conversation, from its next Claude call on; returns it in
 * the `--context` form (`last_turns:2`). The guard may still make it stronger later.
 */
export const setContextStrategyUpdate = defineUpdate<string, [strategy: ContextStrategy]>('setContextStrategy');

/**
 * Sets Claude's thinking of a running conversation (null: off, no `thinking` field), from its next
 * turn on: a turn's tool loop is one assistant turn for the API, which keeps one thinking setting
 * per turn. Returns it in the `--thinking` form (`adaptive:high`, `4096`, `off`). A budget that is
 * not below the conversation's `maxTokens` is refused, nothing recorded.
 */
export const setThinkingUpdate = defineUpdate<string, [thinking: Thinking | null]>('setThinking');

/**
 * Sets the conversation's spending limit (null: none), from its next Claude call on; a turn that
 * ended `budget_exceeded` goes on with the next one once the limit is raised. Returns it in words
 * (`$0.5, 20000 tokens`, `none`). A malformed one is refused by the validator, nothing recorded.
 */
export const setBudgetUpdate = defineUpdate<string, [budget: Budget | null]>('setBudget');

/** Ends the conversation once the pending turns are done; the workflow completes with a summary. */
export const endSignal = defineSignal('end');

/**
 * Wakes an idle conversation so it sees that a newer worker deployment version is its target, and
 * moves there before its next turn (docs/upgrades.md: sent to the old version's conversations after
 * a new one becomes current). Does nothing else; harmless on any worker.
 */
export const checkVersionSignal = defineSignal('checkVersion');

/** The full `messages` array exactly as the Messages API takes it. */
export const messagesQuery = defineQuery<MessageParam[]>('messages');

/** messages[from, to): lets an activity fetch only what its cache lacks. */
export const messagesSliceQuery = defineQuery<MessageParam[], [from: number, to: number]>('messagesSlice');

/**
 * The current catalogue: its Claude tool list (for activities that cache it by digest) and each
 * tool's route, server and MCP name (`mcp-host tools ID`; absent from workers before it was added).
 */
export const toolsQuery = defineQuery<{ digest: string; tools: Tool[]; routes?: ToolRouteEntry[] }>('tools');

/** State, counts, usage totals, last stop reason, pending turns. */
export const statusQuery = defineQuery<ConversationStatus>('status');

/** The current context summary (summarize strategy), for the Claude activity; null when none. */
export const contextSummaryQuery = defineQuery<ContextSummary | null>('contextSummary');

/** What an approve or deny update decided: the calls it settled, and how many still wait. */
export interface ApprovalAnswer {
  decided: PendingApproval[];
  stillWaiting: number;
}

/**
 * Approves tool calls waiting for approval (`approval: "ask"`): those named by `tool_use` id, or
 * every waiting one when none are named. They run at once. Refused (nothing recorded) when nothing
 * waits or an id names no waiting call.
 */
export const approveToolCallsUpdate = defineUpdate<ApprovalAnswer, [request: ApprovalRequest]>('approveToolCalls');

/**
 * Denies tool calls waiting for approval, as {@link approveToolCallsUpdate} names them: they never
 * run, and Claude gets an `is_error` result saying the user declined (with `reason`, when given).
 */
export const denyToolCallsUpdate = defineUpdate<ApprovalAnswer, [request: ApprovalRequest]>('denyToolCalls');

/**
 * Answers one request a server made in the middle of a tool call (a form, a URL visit, leave to run
 * a completion): accept (with the form's content, checked against its schema), decline or cancel.
 * Refused (nothing recorded) for an unknown or already answered request, or content that breaks the
 * schema; the error names the field.
 */
export const respondToInputUpdate = defineUpdate<InputResponseAnswer, [request: InputResponseRequest]>('respondToInput');

/**
 * A 2025-era server asked for input on the open connection during a `tools/call`: the activity holding
 * the call tells the conversation, which asks the user (or its policy) and keeps the answer, which the
 * activity reads with {@link inputResponsesQuery}. The same request id twice is one request.
 */
export const inputRequestedSignal = defineSignal<[request: InputRequestedBy]>('inputRequested');

/** What {@link inputRequestedSignal} carries. */
export interface InputRequestedBy {
  requestId: string;
  toolUseId: string;
  server: string;
  request: ServerInputRequest;
}

/** The answers given so far to requests in one tool call (by `tool_use` id), by request id. */
export const inputResponsesQuery = defineQuery<ServerInputResponses, [toolUseId: string]>('inputResponses');
