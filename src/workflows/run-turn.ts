/**
 * One user turn: the seed's loop (§8.2) with every stop reason handled on purpose (S17).
 * Claude is called with a reference to the transcript, never the transcript itself.
 */
import { ActivityFailure, ApplicationFailure, isCancellation, patched, workflowInfo } from '@temporalio/workflow';
import {
  addUserText,
  appendAssistant,
  appendMessages,
  closeServerToolUses,
  recordModelCall,
  contextWindowFor,
  type ConversationState,
} from '../conversation/conversation-state';
import { decideOnStopReason } from '../conversation/stop-decision';
import { textOf, toolResultsMessage, toolUsesOf, withoutToolUses } from '../conversation/transcript';
import type { PendingTurn, TranscriptRef, TurnResult, TurnStatus } from '../conversation/types';
import type { Thinking } from '../conversation/thinking';
import type { AddedMessages, ClaudeCallInput, ClaudeReply } from '../activities/types';
import { catalogActivities, claudeActivities, countActivities, summaryActivities } from './activity-stubs';
import { decideCompaction, promptTokensOf } from '../context/context-guard';
import { canEscalate, escalate } from '../context/escalate-strategy';
import { estimateTokens, isPromptTooLong } from '../context/prompt-too-long';
import { summaryDue } from '../context/summary-split';
import { addUsage } from '../conversation/usage-totals';
import { budgetStop } from '../conversation/budget';
import { failureMessage } from './failure-message';
import { listedDigestOf, withStableToolNames } from '../conversation/stable-tool-names';
import { notRunResults, runToolsUntilCancelled } from './run-tools';
import { COUNT_TOKENS_PATCH, isPatched, PATCHES } from './patches';

/**
 * The current catalogue, under the tool names this conversation already gave out, and never under
 * the name of one of its server tools (the API refuses two tools of one name).
 */
async function refreshCatalog(state: ConversationState): Promise<void> {
  const listed = await catalogActivities(state.options).listTools(state.catalog ? { knownDigest: listedDigestOf(state.catalog) } : {});
  if (!listed.changed) return;
  const stable = withStableToolNames(listed.catalog, state.toolNames, (state.options.serverTools ?? []).map((tool) => tool.name));
  state.catalog = stable.catalog;
  state.toolNames = stable.given;
}

function transcriptRef(state: ConversationState): TranscriptRef {
  const { workflowId, runId } = workflowInfo();
  return { workflowId, runId, messageCount: state.messages.length, digest: state.digest };
}

/**
 * Summarize strategy: folds turns that aged out of the recent window into the summary before the
 * next call. A failed summary keeps the previous one: the view sent stays valid either way.
 */
async function refreshSummary(state: ConversationState, force: boolean): Promise<void> {
  const strategy = state.contextStrategy;
  if (strategy.kind !== 'summarize') return;
  if (!summaryDue(state.messages, strategy.keepRecentTurns, state.contextSummary ?? undefined, { force })) return;
  try {
    const result = await summaryActivities(state.options).summarizeContext({
      transcript: transcriptRef(state),
      model: state.options.model,
      keepRecentTurns: strategy.keepRecentTurns,
      previousCovers: state.contextSummary?.coveredMessages ?? 0,
    });
    state.usage = addUsage(state.usage, result.usage);
    if (result.summary) state.contextSummary = result.summary;
  } catch (err) {
    if (isCancellation(err)) throw err;
    // Keep the previous summary; the next due point tries again.
  }
}

/**
 * Largest `added` a Claude call carries (characters of JSON): a typical round (a reply and its
 * tool results) fits, so the activity's worker needs no query; a larger one is left to the query,
 * which keeps what the history records per call bounded.
 */
export const ADDED_MESSAGES_MAX_CHARS = 16_384;
/** Claude calls carry the messages added since the previous one (issue 11); older histories did not. */
const ADDED_MESSAGES_PATCH = PATCHES.addedMessages;
/** How many messages the previous Claude call of this run covered (module state is per workflow). */
let coveredByPreviousCall: number | undefined;

/** messages[from, now) for the Claude call about to be made, when patched in and small enough. */
function addedMessages(state: ConversationState): AddedMessages | undefined {
  const from = coveredByPreviousCall ?? 0;
  coveredByPreviousCall = state.messages.length;
  if (!isPatched(ADDED_MESSAGES_PATCH) || from > state.messages.length) return undefined;
  const messages = state.messages.slice(from);
  return JSON.stringify(messages).length <= ADDED_MESSAGES_MAX_CHARS ? { from, messages } : undefined;
}

/** A Claude call's input for the conversation as it stands (`thinking`: the turn's setting; null when off). */
function claudeCallInput(state: ConversationState, thinking: Thinking | null): ClaudeCallInput {
  const { model, maxTokens, system, serverTools } = state.options;
  const strategy = state.contextStrategy;
  return {
    transcript: transcriptRef(state),
    catalogDigest: state.catalog?.digest ?? '',
    model,
    maxTokens,
    ...(system !== undefined ? { system } : {}),
    context: { strategy, summaryCovers: strategy.kind === 'summarize' ? (state.contextSummary?.coveredMessages ?? 0) : 0 },
    promptCache: state.options.promptCache ?? { enabled: true },
    ...(thinking !== null ? { thinking } : {}),
    toolSearch: { mode: state.options.toolSearch ?? 'auto', contextWindow: contextWindowFor(state.options) },
    // Only when the conversation offers some: other calls' inputs are what they always were.
    ...(serverTools !== undefined && serverTools.length > 0 ? { serverTools } : {}),
    ...(state.container !== undefined ? { container: state.container } : {}),
  };
}

/** `thinking`: the turn's setting, taken when it started (absent from the input when off). */
async function askClaude(state: ConversationState, thinking: Thinking | null): Promise<ClaudeReply> {
  const input = claudeCallInput(state, thinking);
  const added = addedMessages(state);
  return claudeActivities(state.options).callClaude({ ...input, ...(added !== undefined ? { added } : {}) });
}

/**
 * The context guard: from the reply's usage, decides whether the next prompt risks the context
 * window and, if so, switches to a stronger strategy for the rest of the conversation.
 */
function guardContext(state: ConversationState, reply: ClaudeReply): boolean {
  state.lastPromptTokens = promptTokensOf(reply.usage);
  const exceeded = reply.stopReason === 'model_context_window_exceeded' && canEscalate(state.contextStrategy);
  const compact =
    exceeded ||
    decideCompaction({
      lastInputTokens: state.lastPromptTokens,
      lastOutputTokens: reply.usage.output_tokens,
      contextWindow: contextWindowFor(state.options),
      ...(state.options.compactionThreshold !== undefined ? { threshold: state.options.compactionThreshold } : {}),
      strategy: state.contextStrategy,
    }) === 'compact';
  if (compact) state.contextStrategy = escalate(state.contextStrategy);
  return compact;
}

/** Whether a failed Claude call is the API's 400 "prompt is too long". */
function promptTooLong(err: unknown): boolean {
  let current: unknown = err;
  while (current instanceof ActivityFailure && current.cause) current = current.cause;
  return current instanceof ApplicationFailure && isPromptTooLong(current.type ?? undefined, current.message);
}

/**
 * Tool results estimated at this many tokens or more are counted instead (the `countTokens`
 * activity): an estimate that far off could escalate for nothing, or let a refusal through.
 */
export const COUNT_TOKENS_FROM = 10_000;

/**
 * The next request's input tokens, counted by the API, when a large tool result joined the prompt;
 * undefined when the worker skips counting (offline), the count failed (the estimate stands), or the
 * history was recorded before counting existed (its own patch).
 */
async function countNextRequest(state: ConversationState, thinking: Thinking | null): Promise<number | undefined> {
  if (!patched(COUNT_TOKENS_PATCH)) return undefined;
  try {
    const counted = await countActivities().countTokens(claudeCallInput(state, thinking));
    return 'inputTokens' in counted ? counted.inputTokens : undefined;
  } catch (err) {
    if (isCancellation(err)) throw err;
    return undefined;
  }
}

/**
 * The guard again once tool results joined the prompt: the last reply's usage does not count them,
 * so a large result could push the next prompt over the window unseen. A large one is counted by
 * the API (the next request as it would go out); others are estimated. Patched: conversations
 * recorded before it did not escalate here.
 */
async function guardPendingResults(state: ConversationState, reply: ClaudeReply, pending: unknown, thinking: Thinking | null): Promise<boolean> {
  const estimated = estimateTokens(pending);
  const counted = estimated >= COUNT_TOKENS_FROM ? await countNextRequest(state, thinking) : undefined;
  const window = {
    contextWindow: contextWindowFor(state.options),
    ...(state.options.compactionThreshold !== undefined ? { threshold: state.options.compactionThreshold } : {}),
    strategy: state.contextStrategy,
  };
  const compact =
    decideCompaction(
      counted !== undefined
        ? { lastInputTokens: counted, ...window }
        : { lastInputTokens: state.lastPromptTokens, lastOutputTokens: reply.usage.output_tokens, pendingTokens: estimated, ...window },
    ) === 'compact';
  if (!compact || !isPatched(PATCHES.guardCountsToolResults)) return false;
  state.contextStrategy = escalate(state.contextStrategy);
  return true;
}

/**
 * The next call's prompt, estimated: the last prompt (as the API counted it) and what joined the
 * history since, from the last reply on (it goes back as input too).
 */
function nextPromptTokens(state: ConversationState): number {
  let from = state.messages.length;
  while (from > 0 && state.messages[from - 1]?.role !== 'assistant') from--;
  return state.lastPromptTokens + estimateTokens(state.messages.slice(Math.max(0, from - 1)));
}

/** How the workflow tells a turn why it is being cancelled. */
export interface TurnControl {
  /** The user cancelled this turn (`cancelTurn`), as opposed to the whole workflow being cancelled. */
  cancelledByUser(): boolean;
}

/**
 * Runs one turn to its end and returns its result; never throws for model or tool failures.
 * Cancelled by the user, it answers the tool uses in flight and ends `cancelled`; any other
 * cancellation (the workflow's) is rethrown, and nothing more is recorded.
 */
export async function runTurn(state: ConversationState, turn: PendingTurn, control: TurnControl = { cancelledByUser: () => false }): Promise<TurnResult> {
  state.currentTurn = turn.turnId;
  addUserText(state, turn.text, turn.content);
  const counts = { modelCalls: 0, toolCalls: 0 };
  const result = (status: TurnStatus, text: string, stopReason: string | null, error?: string): TurnResult => ({
    turnId: turn.turnId,
    status,
    text,
    stopReason,
    ...counts,
    ...(error !== undefined ? { error } : {}),
  });

  const settings: TurnSettings = { thinking: state.thinking ?? null };
  try {
    const ended = await runSteps(state, control, counts, result, settings);
    // A server tool call the turn ended before the API answered (paused, or deferred beside a
    // tool_use) would make every later request invalid: it goes, as an unrun tool_use does.
    closeServerToolUses(state);
    return ended;
  } catch (err) {
    if (isCancellation(err) && control.cancelledByUser()) {
      closeServerToolUses(state);
      return result('cancelled', '', null, 'cancelled by the user');
    }
    throw err;
  }
}

type ResultOf = (status: TurnStatus, text: string, stopReason: string | null, error?: string) => TurnResult;

/** The turn's calls so far. */
interface TurnCounts {
  modelCalls: number;
  toolCalls: number;
}

/**
 * What a turn keeps for all its Claude calls: the thinking setting it started with. For the API a
 * tool loop is one assistant turn, whose thinking must not change midway (a `setThinking` during
 * the turn applies from the next one).
 */
interface TurnSettings {
  thinking: Thinking | null;
}

/** The turn's loop, counting its calls in `counts`. */
async function runSteps(state: ConversationState, control: TurnControl, counts: TurnCounts, result: ResultOf, settings: TurnSettings): Promise<TurnResult> {
  try {
    await refreshCatalog(state);
  } catch (err) {
    if (isCancellation(err)) throw err;
    return result('failed', '', null, `could not list the MCP tools: ${failureMessage(err)}`);
  }

  let forceSummary = false;
  let retriedTooLong = false;
  for (;;) {
    // A budget is checked before each call: the turn stops before the one that would pass it.
    const overBudget = budgetStop(state.budget, state.usage, state.options.model, nextPromptTokens(state), state.options.prices);
    if (overBudget !== undefined) return result('budget_exceeded', '', null, overBudget);
    await refreshSummary(state, forceSummary);
    let reply: ClaudeReply;
    try {
      reply = await askClaude(state, settings.thinking);
    } catch (err) {
      if (isCancellation(err)) throw err;
      // Too long for the window: a stronger strategy for the rest of the conversation, and this
      // call once more with it. Patched: conversations recorded before it failed the turn here.
      if (promptTooLong(err) && canEscalate(state.contextStrategy) && isPatched(PATCHES.escalateOnPromptTooLong)) {
        state.contextStrategy = escalate(state.contextStrategy);
        forceSummary = true;
        if (!retriedTooLong) {
          retriedTooLong = true;
          continue;
        }
      }
      // The history stays valid (it ends with this turn's user message); the next turn joins it.
      return result('failed', '', null, `the Claude call failed: ${failureMessage(err)}`);
    }
    const modelCalls = ++counts.modelCalls;
    recordModelCall(state, reply.usage, reply.stopReason);
    // Code execution's container: the next calls send it back while it lives.
    if (reply.container !== undefined) state.container = reply.container;
    forceSummary = guardContext(state, reply);
    const decision = decideOnStopReason(reply.stopReason);
    switch (decision.kind) {
      case 'run_tools': {
        const toolUses = toolUsesOf(reply.content);
        if (toolUses.length === 0) {
          // Nothing to answer: an empty tool_result message would make every later request invalid.
          const why = 'the reply had stop_reason tool_use but no tool_use block';
          const content = withoutToolUses(reply.content, why);
          appendAssistant(state, content);
          return result('unknown_stop_reason', textOf(content), reply.stopReason, why);
        }
        appendAssistant(state, reply.content);
        if (modelCalls >= state.options.maxIterations) {
          appendMessages(state, toolResultsMessage(notRunResults(toolUses, state.options.maxIterations)));
          return result('iteration_limit', textOf(reply.content), reply.stopReason,
            `stopped after ${modelCalls} model calls (the limit per turn); the tools of the last reply were not run`);
        }
        // Counted once they run: the turn's count matches the status's (calls made, not calls asked for).
        counts.toolCalls += toolUses.length;
        const run = await runToolsUntilCancelled(state, toolUses);
        // Cancelled by the user, the answered tool uses keep the history valid for the next turn;
        // the workflow cancelled, nothing more is recorded.
        if (run.cancelled !== undefined && !control.cancelledByUser()) throw run.cancelled;
        appendMessages(state, toolResultsMessage(run.results));
        if (run.cancelled !== undefined) throw run.cancelled;
        if (!forceSummary) forceSummary = await guardPendingResults(state, reply, run.results, settings.thinking);
        continue;
      }
      case 'continue':
        appendAssistant(state, reply.content);
        if (modelCalls >= state.options.maxIterations) {
          return result('iteration_limit', textOf(reply.content), reply.stopReason,
            `stopped after ${modelCalls} model calls (the limit per turn) while Claude paused its turn`);
        }
        continue;
      case 'end': {
        const content = withoutToolUses(reply.content, decision.why ?? `stop_reason ${String(reply.stopReason)}`);
        appendAssistant(state, content);
        return result(decision.status, textOf(content), reply.stopReason, decision.why);
      }
      default: {
        const unreachable: never = decision;
        throw new Error(`unhandled decision ${JSON.stringify(unreachable)}`);
      }
    }
  }
}
