/**
 * The durable conversation: holds the `messages` array as state, takes user turns as a signal or
 * an update, and runs each turn's tool loop (see run-turn.ts). Handlers only change state or
 * enqueue; the main loop does the work (house rule 2).
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  currentUpdateInfo,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { continueOnCurrentVersion, currentBuildId, VersionMove } from './version-upgrade';
import { acceptedTurn, rememberTurn, repeatProblem, signalKey, updateKey } from '../conversation/accepted-turns';
import {
  continuedState,
  enqueueTurn,
  newConversationState,
  recordTurn,
  statusOf,
  type CarriedState,
  type ConversationState,
} from '../conversation/conversation-state';
import type { ConversationOptions, ConversationSummary, TurnResult } from '../conversation/types';
import {
  cancelTurnUpdate,
  contextSummaryQuery,
  checkVersionSignal,
  endSignal,
  messagesQuery,
  messagesSliceQuery,
  sendMessageUpdate,
  setContextStrategyUpdate,
  setThinkingUpdate,
  setBudgetUpdate,
  statusQuery,
  toolsQuery,
  userMessageSignal,
} from './definitions';
import { runTurn } from './run-turn';
import { contextStrategyProblem, formatContextStrategy } from '../context/strategy-spec';
import type { ContextStrategy } from '../context/context-strategy';
import { formatThinking, thinkingProblem, type Thinking } from '../conversation/thinking';
import { budgetProblem, formatBudget, type Budget } from '../conversation/budget';
import { reportProgress } from './progress';
import { toolRouteEntries } from '../conversation/tool-routes';
import { userMessageProblem } from '../conversation/user-message-problem';
import { hasTurnContent, turnContentProblem, type TurnContent } from '../conversation/turn-content';
import { installApprovalHandlers } from './tool-approval';
import { installInputHandlers } from './server-input';
import { countTurn } from './turn-metrics';
import { inTurnSpan, senderTraceContext } from './turn-trace';

/** The workflow's input. */
export interface ConversationInput {
  options: ConversationOptions;
  /** The state of the previous run, when this run continues a conversation as new. */
  carried?: CarriedState;
}

/** The turn being run: its cancellation scope, and whether the user asked to cancel it. */
interface RunningTurn {
  scope: CancellationScope | null;
  cancelledByUser: boolean;
}

/** Whether this run's history is long enough to hand the conversation to a new run. */
function historyIsLong(state: ConversationState): boolean {
  const info = workflowInfo();
  const limit = state.options.continueAsNewAfterEvents;
  return info.continueAsNewSuggested || (limit !== undefined && info.historyLength >= limit);
}

function installHandlers(state: ConversationState, ended: () => boolean, running: RunningTurn): void {
  setHandler(messagesQuery, () => state.messages);
  setHandler(messagesSliceQuery, (from, to) => state.messages.slice(from, to));
  setHandler(toolsQuery, () => ({ digest: state.catalog?.digest ?? '', tools: state.catalog?.tools ?? [], routes: state.catalog ? toolRouteEntries(state.catalog) : [] }));
  setHandler(statusQuery, () => statusOf(state, ended()));
  setHandler(contextSummaryQuery, () => state.contextSummary);
  setHandler(userMessageSignal, (text, meta) => {
    if (turnContentProblem(text, meta?.content) !== undefined || state.endRequested) return;
    // A message id this conversation already took (a signal repeated across continue-as-new).
    const key = meta?.messageId !== undefined ? signalKey(meta.messageId) : undefined;
    if (key !== undefined && acceptedTurn(state, key)) return;
    const turnId = enqueueTurn(state, text, false, meta?.content, senderTraceContext());
    if (key !== undefined) rememberTurn(state, key, turnId);
  });
  setHandler(cancelTurnUpdate, async () => {
    const turnId = state.currentTurn;
    if (turnId === null || running.scope === null) return { turn: null };
    running.cancelledByUser = true;
    running.scope.cancel();
    await condition(() => state.currentTurn !== turnId);
    return { turn: state.lastTurn?.turnId === turnId ? state.lastTurn : null };
  });
  setHandler(
    setContextStrategyUpdate,
    (strategy): string => {
      state.contextStrategy = strategy;
      return formatContextStrategy(strategy);
    },
    {
      validator: (strategy: ContextStrategy) => {
        const problem = contextStrategyProblem(strategy);
        if (problem !== undefined) throw new Error(problem);
      },
    },
  );
  setHandler(
    setThinkingUpdate,
    (thinking): string => {
      state.thinking = thinking ?? null;
      return formatThinking(state.thinking);
    },
    {
      validator: (thinking: Thinking | null) => {
        const problem = thinkingProblem(thinking, state.options.maxTokens);
        if (problem !== undefined) throw new Error(problem);
      },
    },
  );
  setHandler(
    setBudgetUpdate,
    (budget): string => {
      if (budget === null) delete state.budget;
      else state.budget = budget;
      return formatBudget(state.budget);
    },
    {
      validator: (budget: Budget | null) => {
        const problem = budgetProblem(budget);
        if (problem !== undefined) throw new Error(problem);
      },
    },
  );
  setHandler(endSignal, () => {
    state.endRequested = true;
  });
  // Its work is the workflow task it brings: the main loop's wait reads the version news.
  setHandler(checkVersionSignal, () => undefined);
  installApprovalHandlers(state);
  installInputHandlers(state);
  setHandler(
    sendMessageUpdate,
    async (text, content?: TurnContent): Promise<TurnResult> => {
      // Every update has an id (the client's, or one the server gave it). The same id again is the
      // same turn: Temporal only deduplicates within a run, so a retry can reach a later run.
      const key = updateKey(currentUpdateInfo()?.id ?? '');
      const repeated = acceptedTurn(state, key);
      if (repeated) {
        await condition(() => repeated.result !== undefined || repeated.resultDropped === true);
        if (repeated.result) return repeated.result;
        throw ApplicationFailure.nonRetryable(repeatProblem(state, key) ?? 'the repeated turn has no result', 'host.repeated_turn');
      }
      const turnId = enqueueTurn(state, text, true, content, senderTraceContext());
      rememberTurn(state, key, turnId);
      await condition(() => state.undelivered.some((r) => r.turnId === turnId));
      const index = state.undelivered.findIndex((r) => r.turnId === turnId);
      const [delivered] = state.undelivered.splice(index, 1);
      if (!delivered) throw new Error(`turn ${turnId} has no result`);
      return delivered;
    },
    {
      validator: (text: string, content?: TurnContent) => {
        const key = updateKey(currentUpdateInfo()?.id ?? '');
        if (acceptedTurn(state, key)) {
          // A repeat: answered with its turn's result (even after the end), or refused if that is gone.
          const gone = repeatProblem(state, key);
          if (gone !== undefined) throw new Error(gone);
          return;
        }
        const problem = hasTurnContent(content) ? turnContentProblem(text, content) : userMessageProblem(text);
        if (problem !== undefined) throw new Error(problem);
        if (state.endRequested) throw new Error('the conversation has ended');
      },
    },
  );
}

/** A conversation with Claude over MCP tools, durable across worker crashes and restarts. */
export async function conversationWorkflow(input: ConversationInput): Promise<ConversationSummary> {
  const state = input.carried ? continuedState(input.carried) : newConversationState(input.options);
  let ended = false;
  const running: RunningTurn = { scope: null, cancelledByUser: false };
  installHandlers(state, () => ended, running);
  reportProgress(state);

  const versionMove = new VersionMove(state.leftVersion);
  delete state.leftVersion;
  for (;;) {
    const moving = versionMove.decide();
    if ((historyIsLong(state) || moving) && !state.pending.some((turn) => turn.awaited)) {
      // Updates waiting for an answer must get it from this run, so hand over only when none is
      // waiting; turns that arrived by signal ride along in `pending`. A new update while we wait
      // means another turn to run here first.
      await condition(() => allHandlersFinished() || state.pending.some((turn) => turn.awaited));
      if (allHandlersFinished() && !state.endRequested) {
        if (moving) state.leftVersion = currentBuildId();
        await continueOnCurrentVersion<typeof conversationWorkflow>({ options: state.options, carried: state });
      }
    }
    // An idle conversation also wakes when a newer worker version becomes its target (any signal
    // brings the news), to move there before its next turn.
    await condition(() => state.pending.length > 0 || state.endRequested || versionMove.pending());
    if (state.pending.length === 0 && !state.endRequested) continue;
    const turn = state.pending.shift();
    if (!turn) break;
    // Each turn in a scope of its own, so that `cancelTurn` cancels this turn and nothing else.
    const scope = new CancellationScope();
    running.scope = scope;
    running.cancelledByUser = false;
    const result = await scope.run(() => inTurnSpan(turn, state.options.model, () => runTurn(state, turn, { cancelledByUser: () => running.cancelledByUser })));
    running.scope = null;
    recordTurn(state, turn, result);
    countTurn(result.status);
    reportProgress(state);
  }
  ended = true;
  reportProgress(state, { ended: true });
  await condition(allHandlersFinished);
  return { status: statusOf(state, true), messages: state.messages.length };
}
