/**
 * Keeps what the Web UI shows of a conversation current: its current details (free: they live in
 * the workflow, read by the UI through the built-in metadata query) and its search attributes and
 * memo (each upsert is a command, so only when the state word changes: about twice a turn).
 *
 * State lives at module level: the SDK gives each workflow execution its own module instances, and
 * a replay rebuilds it by running the same code. The workflow calls {@link reportProgress}; the
 * activity stubs call {@link noteActivity} and {@link noteToolCall} around what they schedule.
 *
 * Search attributes are upserted only when the conversation was started with them (the client sets
 * them when the namespace has them registered), so a namespace without them never fails a workflow
 * task; the upserts and the memo sit behind a patch (src/workflows/patches.ts), so histories recorded
 * before replay unchanged.
 */
import { setCurrentDetails, upsertMemo, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { isPatched, PATCHES } from './patches';
import type { ConversationState } from '../conversation/conversation-state';
import { STATE_ATTRIBUTE, TOKENS_ATTRIBUTE, TOOL_CALLS_ATTRIBUTE, TURNS_ATTRIBUTE, WAITING_APPROVAL_ATTRIBUTE, WAITING_INPUT_ATTRIBUTE } from './progress-attributes';
import { currentDetails, lastAnswer, stateWord, totalTokens } from './progress-text';

/** The patch id of the progress upserts (search attributes and memo). */
export const PROGRESS_PATCH = PATCHES.progress;

/** The memo keys a conversation keeps (read by `mcp-host list`). */
export interface ProgressMemo {
  state: string;
  turns: number;
  lastMessage?: string;
}

let tracked: ConversationState | undefined;
let ended = false;
let activity: string | undefined;
const toolsRunning = new Map<string, string>();
let lastWord: string | undefined;
let waitingApproval = false;
let waitingInput = false;

/** The conversation's state, for the activity stubs' summaries; undefined before the workflow reported. */
export function trackedState(): ConversationState | undefined {
  return tracked;
}

function refreshDetails(): void {
  if (!tracked) return;
  setCurrentDetails(currentDetails(tracked, { ended, ...(activity !== undefined ? { activity } : {}), toolsRunning: [...toolsRunning.values()] }));
}

function hasProgressAttributes(): boolean {
  return workflowInfo().typedSearchAttributes.get(STATE_ATTRIBUTE) !== undefined;
}

/** On a change of the state word: search attributes (when the conversation has them) and the memo. */
function upsertOnStateChange(state: ConversationState): void {
  // A turn already queued behind the one that ended keeps the conversation running.
  const settled = stateWord(state, ended);
  const word = settled === 'idle' && state.pending.length > 0 ? 'running' : settled;
  if (word === lastWord) return;
  lastWord = word;
  if (!isPatched(PROGRESS_PATCH)) return;
  if (hasProgressAttributes()) {
    upsertSearchAttributes([
      { key: STATE_ATTRIBUTE, value: word },
      { key: TURNS_ATTRIBUTE, value: state.turnsCompleted },
      { key: TOOL_CALLS_ATTRIBUTE, value: state.toolCalls },
      { key: TOKENS_ATTRIBUTE, value: totalTokens(state) },
    ]);
  }
  // The memo only when something new is in it: a running turn adds nothing to the idle one's.
  if (word !== 'running') {
    const answer = lastAnswer(state);
    const memo: ProgressMemo = { state: word, turns: state.turnsCompleted, ...(answer !== undefined ? { lastMessage: answer } : {}) };
    upsertMemo({ ...memo });
  }
}

/**
 * The workflow reports its state: at its start, after each turn and when it ends. Refreshes the
 * current details and, when the state word changed, the search attributes and memo.
 */
export function reportProgress(state: ConversationState, options: { ended?: boolean } = {}): void {
  tracked = state;
  if (options.ended === true) ended = true;
  activity = undefined;
  // Nothing upserted before the first turn: an idle, empty conversation is what the start set.
  if (lastWord === undefined && state.turnsCompleted === 0 && state.currentTurn === null && !ended) lastWord = 'idle';
  upsertOnStateChange(state);
  refreshDetails();
}

/** An activity is about to be scheduled (`listTools`, `callClaude`, …): the details say so. */
export function noteActivity(label: string): void {
  activity = label;
  if (tracked) upsertOnStateChange(tracked);
  refreshDetails();
}

/** A tool call starts (`running`) or settles: the details list the running ones. */
export function noteToolCall(id: string, label: string, running: boolean): void {
  if (running) toolsRunning.set(id, label);
  else toolsRunning.delete(id);
  refreshDetails();
}

/**
 * The approval list changed (src/workflows/tool-approval.ts): the details list the waiting calls,
 * and `McpHostWaitingApproval` is upserted when it flips, in conversations started with it. Only the
 * approval flow calls this, behind its own patch, so histories without approvals are unchanged.
 */
export function noteApprovals(): void {
  const waiting = (tracked?.approvals ?? []).some((entry) => entry.decision === undefined);
  if (waiting !== waitingApproval) {
    waitingApproval = waiting;
    if (workflowInfo().typedSearchAttributes.get(WAITING_APPROVAL_ATTRIBUTE) !== undefined) {
      upsertSearchAttributes([{ key: WAITING_APPROVAL_ATTRIBUTE, value: waiting }]);
    }
  }
  refreshDetails();
}

/**
 * The input list changed (src/workflows/server-input.ts): the details list the waiting requests, and
 * `McpHostWaitingInput` is upserted when it flips, in conversations started with it. Only servers
 * that ask back lead here, so histories without such requests are unchanged.
 */
export function noteInputs(): void {
  const waiting = (tracked?.inputs ?? []).some((entry) => entry.answer === undefined);
  if (waiting !== waitingInput) {
    waitingInput = waiting;
    if (workflowInfo().typedSearchAttributes.get(WAITING_INPUT_ATTRIBUTE) !== undefined) {
      upsertSearchAttributes([{ key: WAITING_INPUT_ATTRIBUTE, value: waiting }]);
    }
  }
  refreshDetails();
}
