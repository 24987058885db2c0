/**
 * The user turns a conversation took, by the id their sender gave them (an update's id, a signal's
 * message id), so that a repeat is not a second turn. Temporal deduplicates an update id only
 * within one run: an update a client retries after the conversation continued as new (a worker
 * killed, a server restarted while the answer was on its way) reaches the next run as a new update.
 * The ids ride along in the state across continue-as-new, bounded; a repeated update gets its
 * turn's result again while that result is kept. Pure and deterministic: workflow state.
 */
import type { TurnResult } from './types';

/** How many turn ids a conversation remembers (the newest). */
export const REMEMBERED_TURN_IDS = 100;

/**
 * How many of the newest updates keep their turn's result for a repeat. A client repeats an update
 * within seconds or minutes of sending it; a result holds a whole answer's text, which the state
 * carries into every continue-as-new, so only a few are kept.
 */
export const REMEMBERED_RESULTS = 8;

/** One turn taken under a sender's id. */
export interface AcceptedTurn {
  /** `update:<update id>` or `signal:<message id>`: one namespace each. */
  key: string;
  turnId: number;
  /** For an update: its turn's result once the turn is done, while it is among the newest kept. */
  result?: TurnResult;
  /** For an update: set when its result was dropped to keep the state small. */
  resultDropped?: boolean;
}

/** Where turn ids are kept in the workflow state. */
export interface AcceptedTurns {
  accepted: AcceptedTurn[];
}

/** The key of an update id. */
export function updateKey(updateId: string): string {
  return `update:${updateId}`;
}

/** The key of a signal's message id. */
export function signalKey(messageId: string): string {
  return `signal:${messageId}`;
}

/** The turn taken under `key`, if it is remembered. */
export function acceptedTurn(state: AcceptedTurns, key: string): AcceptedTurn | undefined {
  return state.accepted.find((turn) => turn.key === key);
}

/** Remembers that `turnId` was taken under `key`, forgetting the oldest beyond the bound. */
export function rememberTurn(state: AcceptedTurns, key: string, turnId: number): void {
  state.accepted.push({ key, turnId });
  if (state.accepted.length > REMEMBERED_TURN_IDS) state.accepted.splice(0, state.accepted.length - REMEMBERED_TURN_IDS);
}

/**
 * Keeps a finished turn's result with the update that asked for it, and drops the results of
 * updates older than the newest {@link REMEMBERED_RESULTS}.
 */
export function rememberResult(state: AcceptedTurns, result: TurnResult): void {
  const updates = state.accepted.filter((turn) => turn.key.startsWith('update:'));
  const turn = updates.find((candidate) => candidate.turnId === result.turnId);
  if (!turn) return;
  turn.result = result;
  for (const old of updates.slice(0, -REMEMBERED_RESULTS)) {
    if (old.result === undefined) continue;
    delete old.result;
    old.resultDropped = true;
  }
}

/** Why a repeated update cannot be answered, or undefined when it can (or is not a repeat). */
export function repeatProblem(state: AcceptedTurns, key: string): string | undefined {
  const turn = acceptedTurn(state, key);
  if (turn?.resultDropped !== true) return undefined;
  return `this message was already taken as turn ${turn.turnId}; its answer is no longer kept for a repeat (read it with \`history\`)`;
}
