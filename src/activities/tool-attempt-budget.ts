import type { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { decideToolFailure, fastToolFailuresBefore } from '../errors/tool-retry-policy';

/** What `callTool` heartbeats: the tool failures of the call so far, and the server's last progress. */
export interface ToolCallHeartbeat {
  toolFailures: number;
  progress?: unknown;
}

/** The count recorded by the previous attempt (0 on the first attempt, or from details of another shape). */
function failuresRecorded(details: unknown): number {
  if (typeof details !== 'object' || details === null || !('toolFailures' in details)) return 0;
  const count = details.toolFailures;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : 0;
}

/**
 * One attempt of `callTool` applying the tool retry policy (`src/errors/tool-retry-policy.ts`):
 * it reads the tool failures of the earlier attempts from the heartbeat details Temporal hands it,
 * carries that count in every heartbeat (so a progress heartbeat never erases it), and turns a
 * failure into what this attempt throws. A fast tool's call is a local activity, which has no
 * heartbeats: the count is its attempt number, and nothing is heartbeated.
 */
export class ToolAttemptBudget {
  private readonly failuresBefore: number;
  private readonly local: boolean;

  /**
   * @param context The activity's context (its heartbeat details and heartbeat).
   * @param idempotent Whether the tool may be repeated safely: decides the size of the budget.
   */
  constructor(
    private readonly context: Context,
    private readonly idempotent: boolean,
  ) {
    this.local = context.info.isLocal;
    this.failuresBefore = this.local ? fastToolFailuresBefore(context.info.attempt) : failuresRecorded(context.info.heartbeatDetails);
  }

  /** Heartbeats with the count so far and the tool's latest progress notification, if any (not in a local activity). */
  heartbeat(progress?: unknown): void {
    if (this.local) return;
    const details: ToolCallHeartbeat = { toolFailures: this.failuresBefore, ...(progress !== undefined ? { progress } : {}) };
    this.context.heartbeat(details);
  }

  /**
   * What this attempt throws for `failure` (already classified): the same failure when it is not the
   * tool's to count; with budget left, a retryable copy that asks for the policy's backoff, after a
   * heartbeat recording the new count (the SDK flushes it before reporting the failure, so the next
   * attempt reads it); once the budget is spent, a non-retryable copy that says how often it was tried.
   */
  charge(failure: ApplicationFailure): ApplicationFailure {
    const decision = decideToolFailure({ type: failure.type ?? undefined, retryable: failure.nonRetryable !== true }, this.failuresBefore, this.idempotent);
    switch (decision.kind) {
      case 'pass':
        return failure;
      case 'retry': {
        const record: ToolCallHeartbeat = { toolFailures: decision.toolFailures };
        if (!this.local) this.context.heartbeat(record);
        // No MCP failure names a delay of its own (unlike the Messages API's retry-after).
        return new ApplicationFailure(failure.message, failure.type, false, failure.details, failure.cause, decision.delayMs);
      }
      case 'give_up': {
        const message =
          decision.mayHaveRun === true
            ? `${failure.message}; not run again: it may have run, and its server does not mark it idempotent or read-only`
            : `${failure.message}; tried ${decision.toolFailures} times`;
        return new ApplicationFailure(message, failure.type, true, failure.details, failure.cause);
      }
      default: {
        const unreachable: never = decision;
        throw new Error(`unhandled decision ${JSON.stringify(unreachable)}`);
      }
    }
  }
}
