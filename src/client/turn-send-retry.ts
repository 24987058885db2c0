/**
 * Sending a user turn again, with the same update id, when the server lost or could not yet take
 * it. The conversation runs each message id once (src/conversation/accepted-turns.ts), so a send
 * repeated with the same id gets the same turn's answer: re-sending is always safe, and giving up
 * early would lose a turn the user typed.
 *
 * Which failures are sent again, and why (each seen by the fault suite, chaos/):
 * - the update's RPC timed out (`context deadline exceeded`, an overloaded server): its outcome is
 *   unknown;
 * - `update "…" not found` while polling for the outcome: the workflow task that carried the
 *   update was lost (its worker was killed) before the update was accepted, and the server dropped it;
 * - `Workflow Task in failed state`: the server refuses new updates until a worker completes the
 *   conversation's next workflow task;
 * - the update was aborted because its run closed first (continue-as-new): the next run takes it;
 * - the server rejected it as `UnprocessedUpdate` ("wasn't processed by worker"): a workflow task
 *   carried it and was completed without an answer to it (seen once in chaos, a send racing a
 *   dev server restart and a new run); nothing of it ran, and the next task delivers it again.
 * Everything else, above all the validator's refusals (an empty or too large message, an ended
 * conversation), is final and thrown at once.
 */
import { WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError, isGrpcServiceError, ServiceError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';

/** How long a send keeps trying, and the pause between tries. */
export interface TurnSendRetry {
  /** Total time after which the last failure is thrown (default 5 minutes). */
  giveUpAfterMs: number;
  /** First pause; doubles up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_TURN_SEND_RETRY: TurnSendRetry = { giveUpAfterMs: 5 * 60_000, initialDelayMs: 250, maxDelayMs: 5_000 };

const TRANSIENT_TEXT = /context deadline exceeded|Workflow Task in failed state|update .* not found|aborted|completed before the Update completed|continued as new|continuing as new/i;

/** The failure type of the server's rejection of an update no workflow task answered. */
const UNPROCESSED_UPDATE = 'UnprocessedUpdate';

/** gRPC status codes (grpc/status.proto): DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, UNAVAILABLE. */
const TRANSIENT_CODES = new Set<number>([4, 8, 10, 14]);

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A gRPC error's words: its details and its message. An update-with-start refused by the server
 * arrives as the SDK unpacks a MultiOperationExecutionFailure: the refusal's text in `message`
 * ("Unable to perform workflow execution update due to Workflow Task in failed state."), `details`
 * holding the operation's detail bytes or "MultiOperation could not be executed." (seen in chaos).
 */
function grpcWords(err: { details?: string; message: string }): string {
  return `${err.details ?? ''}\n${err.message}`;
}

/** Whether a failed turn send may be sent again with the same update id. */
export function isTransientTurnSendFailure(err: unknown): boolean {
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  // NOT_FOUND is final for the workflow ("workflow execution already completed"), transient for the update.
  if (err instanceof WorkflowNotFoundError) return /^update .* not found/i.test(err.message);
  if (err instanceof WorkflowUpdateFailedError) {
    // The handler's own refusals are final; the server's aborts and rejections of its own are not.
    if (err.cause instanceof ApplicationFailure && err.cause.type === UNPROCESSED_UPDATE) return true;
    return err.cause instanceof Error && TRANSIENT_TEXT.test(err.cause.message);
  }
  if (err instanceof ServiceError) {
    const cause = err.cause;
    if (isGrpcServiceError(cause)) return TRANSIENT_CODES.has(cause.code) || TRANSIENT_TEXT.test(grpcWords(cause));
    return TRANSIENT_TEXT.test(messageOf(err));
  }
  if (isGrpcServiceError(err)) return TRANSIENT_CODES.has(err.code) || TRANSIENT_TEXT.test(grpcWords(err));
  return false;
}

/**
 * Runs `send(attempt)` until it succeeds, a failure is final, or the time is up. `send` must use the
 * same update id on every attempt.
 */
export async function sendTurnWithRetry<T>(
  send: (attempt: number) => Promise<T>,
  retry: TurnSendRetry = DEFAULT_TURN_SEND_RETRY,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  const giveUpAt = Date.now() + retry.giveUpAfterMs;
  let delay = retry.initialDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send(attempt);
    } catch (err) {
      if (!isTransientTurnSendFailure(err) || Date.now() + delay > giveUpAt) throw err;
    }
    await sleep(delay);
    delay = Math.min(delay * 2, retry.maxDelayMs);
  }
}
