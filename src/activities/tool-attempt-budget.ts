import type { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { decideToolFailure, fastToolFailuresBefore } from '../errors/tool-retry-policy';

/**
 * What `callTool` heartbeats: the tool failures of the call so far, the server's last progress, and
 * for a tool run as an MCP task (src/mcp/tasks) its task id and last status, so that the attempt
 * after a lost worker polls that task instead of calling the tool again.
 */
export interface ToolCallHeartbeat {
  toolFailures: number;
  progress?: unknown;
  /** The MCP task running the call; absent when there is none (or it ended and must not be resumed). */
  taskId?: string;
  /** The task's last status and status message, for whoever watches the call. */
  taskStatus?: { status: string; message?: string };
}

/** The count recorded by the previous attempt (0 on the first attempt, or from details of another shape). */
function failuresRecorded(details: unknown): number {
  if (typeof details !== 'object' || details === null || !('toolFailures' in details)) return 0;
  const count = details.toolFailures;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : 0;
}

/** The task id recorded by the previous attempt, if any (a non-empty string). */
function taskRecorded(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null || !('taskId' in details)) return undefined;
  const id = details.taskId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * One attempt of `callTool` applying the tool retry policy (`src/errors/tool-retry-policy.ts`):
 * it reads the tool failures of the earlier attempts from the heartbeat details Temporal hands it,
 * carries that count in every heartbeat (so a progress heartbeat never erases it), and turns a
 * failure into what this attempt throws. A fast tool's call is a local activity, which has no
 * heartbeats: the count is its attempt number, and nothing is heartbeated.
 *
 * It also carries the call's MCP task id from one attempt to the next ({@link previousTaskId},
 * {@link noteTask}): in every heartbeat, including the one that records a failure, until the task
 * is forgotten (it ended failed or cancelled, or its server lost it), after which an attempt calls
 * the tool afresh.
 */
export class ToolAttemptBudget {
  private readonly failuresBefore: number;
  private readonly local: boolean;
  /** The task id the previous attempt recorded; undefined on a first attempt or a call without a task. */
  readonly previousTaskId: string | undefined;
  private taskId: string | undefined;
  private taskStatus: ToolCallHeartbeat['taskStatus'];

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
    this.previousTaskId = this.local ? undefined : taskRecorded(context.info.heartbeatDetails);
    // Carried from the start: an attempt lost before it reaches the task must not lose the id.
    this.taskId = this.previousTaskId;
  }

  /** The call's MCP task as last noted (at first the previous attempt's); undefined when it has none. */
  get currentTaskId(): string | undefined {
    return this.taskId;
  }

  /**
   * Records the call's MCP task (its id and, when known, its status) for every heartbeat from now
   * on; `undefined` forgets it, so the next attempt does not resume it.
   */
  noteTask(taskId: string | undefined, status?: { status: string; message?: string }): void {
    if (taskId !== this.taskId) this.taskStatus = undefined;
    this.taskId = taskId;
    if (status !== undefined) this.taskStatus = status;
  }

  /** Heartbeats with the count so far, the tool's latest progress notification and its task, if any (not in a local activity). */
  heartbeat(progress?: unknown): void {
    if (this.local) return;
    const details: ToolCallHeartbeat = { toolFailures: this.failuresBefore, ...(progress !== undefined ? { progress } : {}), ...this.task() };
    this.context.heartbeat(details);
  }

  /** The task fields of a heartbeat: none when the call has no task. */
  private task(): Pick<ToolCallHeartbeat, 'taskId' | 'taskStatus'> {
    if (this.taskId === undefined) return {};
    return { taskId: this.taskId, ...(this.taskStatus !== undefined ? { taskStatus: this.taskStatus } : {}) };
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
        const record: ToolCallHeartbeat = { toolFailures: decision.toolFailures, ...this.task() };
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
