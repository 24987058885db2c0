import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { claudeFailureDelayMs } from '../errors/claude-retry-policy';

/**
 * The failure a Claude call's attempt `attempt` ends with: a retryable failure that names no delay
 * of its own (no `retry-after`) gets the policy's backoff for that attempt; any other is as it was.
 */
export function withClaudeFailureDelay(failure: ApplicationFailure, attempt: number): ApplicationFailure {
  if (failure.nonRetryable || failure.nextRetryDelay != null) return failure;
  const delayed = new ApplicationFailure(failure.message, failure.type, false, failure.details, failure.cause, claudeFailureDelayMs(attempt), failure.category);
  delayed.stack = failure.stack;
  return delayed;
}

/**
 * A Claude call's activity, whose retryable failures name their delay before the next attempt
 * (`src/errors/claude-retry-policy.ts`): the API's `retry-after` when it sent one, else the
 * policy's backoff for this attempt. Temporal's own short interval is then left to attempts lost
 * with their worker.
 */
export function withClaudeFailureDelays<I, O>(activity: (input: I) => Promise<O>): (input: I) => Promise<O> {
  return async (input) => {
    try {
      return await activity(input);
    } catch (err) {
      throw err instanceof ApplicationFailure ? withClaudeFailureDelay(err, Context.current().info.attempt) : err;
    }
  };
}
