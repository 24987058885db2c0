/**
 * The host's one policy for retrying a Claude call (`callClaude`, and `summarizeContext`, which is
 * a Claude call too). Pure: the workflow sandbox imports it for the activity's Temporal retry policy.
 *
 * - **A lost worker is retried at once.** Temporal's retry policy has a short first interval, and
 *   the only retries that use it are attempts lost to a timeout (the heartbeat stopped: the worker
 *   died or stalled), which have already waited out that timeout. The attempt after a `kill -9`
 *   starts when the heartbeat timeout has passed, not a second or more later.
 * - **The API's own failures back off.** A retryable failure of the call itself (429, 529, 5xx, a
 *   dropped connection, a stalled stream) names its own delay: the `retry-after` the API sent, or
 *   else {@link claudeFailureDelayMs} — 1 s, 2 s, 4 s… up to a minute, by attempt, as Temporal's
 *   own exponential backoff would. Failures that must not be retried (400, 401, a call past its
 *   total time limit) are non-retryable whatever the policy (`src/errors/classify-error.ts`).
 * - **Attempts are bounded** at {@link CLAUDE_CALL_RETRY_POLICY}'s maximum, lost ones included.
 */
import type { RetryPolicy } from '@temporalio/common';

/** Backoff between the API's own failures, when it named none: 1 s, 2 s, 4 s… up to 1 minute. */
const FAILURE_BACKOFF = { initialMs: 1000, coefficient: 2, maximumMs: 60_000 } as const;

/** Temporal's retry policy of a Claude call: see the module comment. */
export const CLAUDE_CALL_RETRY_POLICY: RetryPolicy = {
  initialInterval: '100 ms',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 10,
};

/** The delay before the next attempt after the API's own failure on attempt `attempt` (1-based). */
export function claudeFailureDelayMs(attempt: number): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(FAILURE_BACKOFF.maximumMs, FAILURE_BACKOFF.initialMs * FAILURE_BACKOFF.coefficient ** exponent);
}
