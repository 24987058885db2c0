/**
 * What the loop does next, decided by `stop_reason` alone (seed §8.3: the only authority, S17).
 * Pure and exhaustive: a new stop reason in the SDK's type fails compilation here.
 */
import type { StopReason, TurnStatus } from './types';

/** The loop's next step after one Claude reply. */
export type StopDecision =
  | { kind: 'run_tools' }
  /** `pause_turn`: the reply goes back as it is and Claude continues the same turn. */
  | { kind: 'continue' }
  | { kind: 'end'; status: TurnStatus; why?: string };

/** Decides on the reply's stop reason; an unknown value (a newer API) ends the turn visibly. */
export function decideOnStopReason(stopReason: StopReason | null): StopDecision {
  if (stopReason === null) return { kind: 'end', status: 'unknown_stop_reason', why: 'the reply had no stop_reason' };
  switch (stopReason) {
    case 'tool_use':
      return { kind: 'run_tools' };
    case 'end_turn':
      return { kind: 'end', status: 'completed' };
    case 'pause_turn':
      return { kind: 'continue' };
    case 'max_tokens':
      return { kind: 'end', status: 'max_tokens', why: 'the reply was cut at max_tokens' };
    case 'stop_sequence':
      return { kind: 'end', status: 'stop_sequence' };
    case 'refusal':
      return { kind: 'end', status: 'refusal', why: 'Claude declined to answer' };
    case 'model_context_window_exceeded':
      return { kind: 'end', status: 'context_window_exceeded', why: "the conversation exceeded the model's context window" };
    default: {
      const unknown: never = stopReason;
      return { kind: 'end', status: 'unknown_stop_reason', why: `unknown stop_reason ${String(unknown)}` };
    }
  }
}
