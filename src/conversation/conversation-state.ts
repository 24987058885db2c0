/**
 * The conversation workflow's state and its pure transitions. The workflow owns one of these;
 * everything here is deterministic and testable without Temporal.
 */
import { compactionCount } from '../context/compaction';
import { budgetLeft, type Budget } from './budget';
import { DEFAULT_CONTEXT_STRATEGY, type ContextStrategy } from '../context/context-strategy';
import type { ContextSummary } from '../context/context-summary';
import type { ReplyUsage } from '../claude/reply-usage';
import type { ContainerRef } from '../claude/server-tools';
import { rememberResult, type AcceptedTurn } from './accepted-turns';
import { toolRouteEntries } from './tool-routes';
import type { GivenToolNames } from './stable-tool-names';
import { formatContextStrategy } from '../context/strategy-spec';
import { contextWindowOf } from '../models/context-windows';
import { estimateCost } from './cost';
import { digestOf, extendDigest, EMPTY_DIGEST } from './digest';
import { withoutUnansweredServerToolUses, withUserText } from './transcript';
import { hasTurnContent, withTurnContent, type TurnContent } from './turn-content';
import { formatThinking, type Thinking } from './thinking';
import { addUsage, NO_USAGE } from './usage-totals';
import { waitingApprovals, type ApprovalEntry } from '../approval/pending-approvals';
import { waitingInputs, type InputEntry } from '../input/input-requests';
import type { ServerInputResponses } from '../input/input-responses';
import type {
  ContentBlockParam,
  ConversationOptions,
  ConversationStatus,
  MessageParam,
  PendingTurn,
  ToolCatalog,
  TurnResult,
  UsageTotals,
} from './types';

/** Everything the workflow holds; also what continue-as-new carries. */
export interface ConversationState {
  options: ConversationOptions;
  messages: MessageParam[];
  /** Rolling digest of `messages`, kept in step with every change. */
  digest: string;
  catalog: ToolCatalog | null;
  /** Every Claude tool name this conversation gave out, kept for its whole life (stable names). */
  toolNames: GivenToolNames;
  pending: PendingTurn[];
  nextTurnId: number;
  currentTurn: number | null;
  turnsCompleted: number;
  /** Results not yet collected by the update that asked for them. */
  undelivered: TurnResult[];
  /** The turns taken under their sender's id (update or signal): a repeat is not a new turn. */
  accepted: AcceptedTurn[];
  lastTurn: TurnResult | null;
  modelCalls: number;
  toolCalls: number;
  toolErrors: number;
  hostToolErrors: number;
  usage: UsageTotals;
  lastStopReason: string | null;
  endRequested: boolean;
  /** What is sent to Claude: starts as configured, only ever made stronger by the guard. */
  contextStrategy: ContextStrategy;
  /** The summary of older turns (summarize strategy). */
  contextSummary: ContextSummary | null;
  /** Tokens of the last prompt (cached parts included): what the guard reads. */
  lastPromptTokens: number;
  /**
   * Tool calls of the running turn waiting for the user's approval (src/approval). Empty between
   * turns, so continue-as-new (only ever between turns) never carries a waiting call.
   */
  approvals: ApprovalEntry[];
  /**
   * Requests from servers in the middle of the running turn's tool calls, waiting for an answer
   * (src/input). Empty between turns, like the approvals.
   */
  inputs: InputEntry[];
  /**
   * The answers given to servers' requests, per `tool_use` id, until that call has finished: an
   * attempt after a lost worker that is asked the same question gets the same answer.
   */
  inputResponses: Record<string, ServerInputResponses>;
  /** Completions Claude made for servers (sampling), counted apart as well as in `usage`. */
  sampling: { calls: number; usage: UsageTotals };
  /**
   * Claude's thinking for the turns to come: starts as configured, changed by `setThinking`; null
   * sends no `thinking` field. A turn keeps the setting it started with (see `runTurn`).
   */
  thinking: Thinking | null;
  /**
   * The code execution container the last reply that used one named (server tools): later Claude
   * calls send it back while it lives. Absent until code runs, and in runs before server tools.
   */
  container?: ContainerRef;
  /**
   * The spending limit for the turns to come: starts as configured, changed by `setBudget`
   * (src/conversation/budget.ts). Absent: no limit (and in runs before budgets).
   */
  budget?: Budget;
  /**
   * The worker deployment build id the previous run continued as new to leave (Worker Versioning,
   * src/workflows/version-upgrade.ts). A run that finds itself on that build again stays there
   * instead of trying once more: no chain of continue-as-new on a server that cannot move it.
   */
  leftVersion?: string;
}

/** The context window the guard works with: configured, or known for the model. */
export function contextWindowFor(options: ConversationOptions): number {
  return options.contextWindow ?? contextWindowOf(options.model);
}

/** A fresh conversation. */
export function newConversationState(options: ConversationOptions): ConversationState {
  return {
    options,
    messages: [],
    digest: EMPTY_DIGEST,
    catalog: null,
    toolNames: [],
    pending: [],
    nextTurnId: 1,
    currentTurn: null,
    turnsCompleted: 0,
    undelivered: [],
    accepted: [],
    lastTurn: null,
    modelCalls: 0,
    toolCalls: 0,
    toolErrors: 0,
    hostToolErrors: 0,
    usage: NO_USAGE,
    lastStopReason: null,
    endRequested: false,
    contextStrategy: options.context ?? DEFAULT_CONTEXT_STRATEGY,
    contextSummary: null,
    lastPromptTokens: 0,
    approvals: [],
    inputs: [],
    inputResponses: {},
    sampling: { calls: 0, usage: NO_USAGE },
    thinking: options.thinking ?? null,
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
  };
}

/** A state carried by continue-as-new, possibly from a run before a field existed. */
type AddedLater = 'accepted' | 'toolNames' | 'approvals' | 'inputs' | 'inputResponses' | 'sampling' | 'thinking';
export type CarriedState = Omit<ConversationState, AddedLater> & Partial<Pick<ConversationState, AddedLater>>;

/**
 * The state a run continues with, filling what runs before it did not carry: no accepted ids, and
 * the names of the current catalogue as the names given out so far.
 */
export function continuedState(carried: CarriedState): ConversationState {
  const toolNames: GivenToolNames =
    carried.toolNames ?? (carried.catalog ? toolRouteEntries(carried.catalog).map(([name, route]) => [route.server, route.name, name]) : []);
  return {
    ...carried,
    accepted: carried.accepted ?? [],
    toolNames,
    approvals: carried.approvals ?? [],
    inputs: carried.inputs ?? [],
    inputResponses: carried.inputResponses ?? {},
    sampling: carried.sampling ?? { calls: 0, usage: NO_USAGE },
    // A run before thinking could be set carried none: its options say what it started with.
    thinking: carried.thinking !== undefined ? carried.thinking : (carried.options.thinking ?? null),
  };
}

/** Queues a user turn and returns its id. */
export function enqueueTurn(state: ConversationState, text: string, awaited: boolean, content?: TurnContent, trace?: Record<string, string>): number {
  const turnId = state.nextTurnId++;
  state.pending.push({ turnId, text, awaited, ...(hasTurnContent(content) ? { content } : {}), ...(trace !== undefined ? { trace } : {}) });
  return turnId;
}

/** Appends messages, advancing the digest over each one. */
export function appendMessages(state: ConversationState, ...messages: MessageParam[]): void {
  for (const message of messages) {
    state.messages.push(message);
    state.digest = extendDigest(state.digest, message);
  }
}

/**
 * Appends Claude's reply. After `pause_turn` the history already ends with this turn's paused
 * assistant message; the continuation joins it, so roles keep alternating (the API itself treats
 * the continuation as the same assistant turn). Rare, so the digest is recomputed then.
 */
export function appendAssistant(state: ConversationState, content: ContentBlockParam[]): void {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'assistant') {
    appendMessages(state, { role: 'assistant', content });
    return;
  }
  const previous: ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  state.messages = [...state.messages.slice(0, -1), { role: 'assistant', content: [...previous, ...content] }];
  state.digest = digestOf(state.messages);
}

/**
 * At the end of a turn: drops the `server_tool_use` blocks no result answers (a paused or deferred
 * server tool call the turn ended before: see {@link withoutUnansweredServerToolUses}), so the next
 * request is valid. Rare, so the digest is recomputed then (a worker's cached transcript misses
 * once, and is read again: the digest check); usually nothing changes.
 */
export function closeServerToolUses(state: ConversationState): void {
  const closed = withoutUnansweredServerToolUses(state.messages);
  if (closed === null) return;
  state.messages = closed;
  state.digest = digestOf(state.messages);
}

/**
 * Adds a user turn's text (see {@link withUserText}), or its text with what it carries (attached
 * resources, a prompt's messages: {@link withTurnContent}). When it joins a trailing user message,
 * that message changed, so the digest is computed again from the start: rare, and still
 * deterministic; likewise for a turn with content, which may add several messages.
 */
export function addUserText(state: ConversationState, text: string, content?: TurnContent): void {
  if (hasTurnContent(content)) {
    state.messages = withTurnContent(state.messages, text, content);
    state.digest = digestOf(state.messages);
    return;
  }
  const before = state.messages.length;
  state.messages = withUserText(state.messages, text);
  state.digest =
    state.messages.length > before
      ? extendDigest(state.digest, state.messages[before])
      : digestOf(state.messages);
}

/** Records one Claude reply's accounting. */
export function recordModelCall(state: ConversationState, usage: ReplyUsage, stopReason: string | null): void {
  state.modelCalls += 1;
  state.usage = addUsage(state.usage, usage);
  state.lastStopReason = stopReason;
}

/** Records a finished turn. */
export function recordTurn(state: ConversationState, turn: PendingTurn, result: TurnResult): void {
  state.turnsCompleted += 1;
  state.currentTurn = null;
  state.lastTurn = result;
  if (turn.awaited) {
    state.undelivered.push(result);
    rememberResult(state, result);
  }
}

/** The status query's answer. */
export function statusOf(state: ConversationState, ended: boolean): ConversationStatus {
  return {
    state: ended ? 'ended' : state.currentTurn !== null ? 'running' : 'idle',
    turnsCompleted: state.turnsCompleted,
    currentTurn: state.currentTurn,
    pendingTurns: state.pending.length,
    modelCalls: state.modelCalls,
    toolCalls: state.toolCalls,
    toolErrors: state.toolErrors,
    hostToolErrors: state.hostToolErrors,
    usage: state.usage,
    lastStopReason: state.lastStopReason,
    lastTurn: state.lastTurn,
    messageCount: state.messages.length,
    toolCount: state.catalog?.tools.length ?? 0,
    pendingApprovals: waitingApprovals(state.approvals),
    pendingInputs: waitingInputs(state.inputs),
    ...(state.sampling.calls > 0 ? { sampling: state.sampling } : {}),
    ...(state.thinking !== null ? { thinking: formatThinking(state.thinking) } : {}),
    toolSearch: state.options.toolSearch ?? 'auto',
    ...(state.budget !== undefined ? { budget: { ...state.budget, left: budgetLeft(state.budget, state.usage, state.options.model, state.options.prices) } } : {}),
    cost: estimateCost(state.usage, state.options.model, state.options.prices),
    context: {
      strategy: formatContextStrategy(state.contextStrategy),
      summaryCovers: state.contextSummary?.coveredMessages ?? 0,
      lastPromptTokens: state.lastPromptTokens,
      contextWindow: contextWindowFor(state.options),
      ...compactionsOf(state.messages),
    },
  };
}

/** The compactions field of the status: only when the history holds some. */
function compactionsOf(messages: ConversationState['messages']): { compactions?: number } {
  const compactions = compactionCount(messages);
  return compactions > 0 ? { compactions } : {};
}
