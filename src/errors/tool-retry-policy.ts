/**
 * The host's one policy for retrying a tool call (`callTool`), used by the workflow (the activity's
 * Temporal retry policy) and by the activity (its attempt budget). Pure: the workflow sandbox imports it.
 *
 * - **Worker loss is not the tool's failure.** An attempt whose worker died (its heartbeat stopped),
 *   or that a draining worker gave back, is retried for as long as it takes, without spending the
 *   tool's budget: Temporal's retry policy has no attempt limit, and the only retries that use its
 *   short interval are those of lost attempts (every tool failure names its own delay).
 * - **The tool's own failures are bounded.** A retryable failure of the call itself (the server's
 *   `timeoutMs` or the attempt's own deadline passed; the connection to the server broke or could
 *   not be made; a retryable JSON-RPC error such as -32603; an unclassified error) spends one unit
 *   of the budget: 3 for a tool not marked idempotent, 6 for one that is (MCP `idempotentHint` or
 *   `readOnlyHint`), with exponential backoff between them. The failure that exhausts the budget is
 *   made non-retryable, so the workflow writes the host's `is_error` result for Claude.
 *   Non-retryable failures (rejected arguments, unknown tool…) end the call at once.
 * - **A tool that may have run is run again only if it is safe.** After a failure that leaves the
 *   tool possibly run ({@link MAY_HAVE_RUN_FAILURES}: a timeout, whether or not the server still
 *   answers ping; a connection lost mid-call; garbage instead of the answer), a tool not marked
 *   idempotent or read-only is not run again: the failure is made final at once. So such a tool
 *   runs twice for one call only when the worker running it is lost mid-call (at least once).
 *   The README's "Failures and retries" has the whole table.
 * - **A tool run as an MCP task runs once** (src/mcp/tasks): its task id rides in the heartbeat
 *   details, so an attempt after a lost worker, a failed poll or an attempt's deadline polls the
 *   same task instead of calling the tool again. Only a task its server forgot (`mcp.task_lost`)
 *   or one that ended failed or cancelled is called afresh, under the rules above.
 *
 * The count of tool failures lives in the activity's heartbeat details, which Temporal carries from
 * one attempt to the next: an attempt that fails records the new count in a heartbeat before it
 * throws (SDK 1.24 flushes a failing activity's last heartbeat before reporting the failure, even
 * a throttled one: read in its worker and core, checked by experiment, and relied on by the hanging
 * tool test of test/integration/mcp-host-loop.test.ts), and a killed attempt records nothing, so it
 * costs nothing.
 *
 * **Fast tools** (mcp.json `fast` / `fastTools`, src/mcp/fast-tools.ts) run as Temporal *local
 * activities*: on the worker that runs the workflow, inside the workflow task that asked for them;
 * the result is recorded as a marker in the task that goes on to the next Claude call, which saves
 * one activity dispatch and one workflow task per call. What changes, and what does not:
 * - **The tool's own failures: the same budget, classification and end.** A local activity has no
 *   heartbeats (SDK 1.24: `heartbeat()` does nothing in one), so the count is the attempt number:
 *   every earlier attempt of a local activity ran on this worker and failed (a worker-side failure,
 *   `mcp.shutting_down`, counts too here; rare: the connections close after the worker stopped).
 *   The same {@link decideToolFailure} decides each failure (3 attempts, 6 for an idempotent or
 *   read-only tool, the same backoff, a tool that may have run not run again unless idempotent);
 *   the one that spends the budget fails non-retryable and Claude gets the same `is_error` result.
 *   {@link fastToolCallRetryPolicy} also caps the attempts at the budget, so nothing else (the
 *   start-to-close timeout, which on a local activity is never a lost worker) retries beyond it.
 *   The backoff (at most 20 s) stays below the local retry threshold (1 minute), so retries wait
 *   inside the worker, never as a workflow timer.
 * - **A lost worker costs a workflow task timeout, not a heartbeat timeout.** Nothing is recorded
 *   until the call ends, so when the worker dies mid-call, the workflow task times out (the
 *   conversation's workflow task timeout, src/client/commands.ts), another worker replays the
 *   history and runs the call again from its first attempt (the failures counted on the lost
 *   worker are forgotten with it). The call runs at least once, and a tool not marked idempotent
 *   may run twice, as a regular call lost mid-call. A worker stopping gracefully finishes a running
 *   fast call and records it before it exits; one that outlasts the shutdown grace time (10 s) is
 *   lost with the worker in the same way.
 * - **While a fast call runs, the workflow task stays open**: queries, updates and signals (status,
 *   approvals, a cancelled turn) wait for the call to end (test/integration/fast-tools.test.ts
 *   measures a status query), and a call longer than the task timeout is kept alive by the SDK's
 *   workflow-task heartbeats (core completes a still-busy task and takes a new one at 80 % of its
 *   timeout). A fast call is bounded by the same start-to-close timeout as a regular one
 *   ({@link toolAttemptTimeouts}).
 * So `fast` is for short tools (milliseconds to a second or two), safe to repeat after a lost worker.
 */
import type { RetryPolicy } from '@temporalio/common';
import type { FailureType } from './failure-types';

/** Tool failures a call may have, in all, when its server did not promise idempotence. */
export const NON_IDEMPOTENT_TOOL_ATTEMPTS = 3;
/** Tool failures a call may have, in all, when its server marked the tool idempotent or read-only. */
export const IDEMPOTENT_TOOL_ATTEMPTS = 6;

/** Backoff between the tool's own failures: 1 s, 2 s, 4 s… up to 20 s. */
const FAILURE_BACKOFF = { initialMs: 1000, coefficient: 2, maximumMs: 20_000 } as const;

/**
 * Retryable failures that say nothing about the tool: the worker was shutting down (another worker
 * takes the call), or an MCP task outlasted the attempt (the next attempt polls the same task, so a
 * long task is bounded by its server's TTL, not by the attempt budget). Everything else retryable
 * counts against the budget.
 */
const WORKER_SIDE_FAILURES: ReadonlySet<FailureType> = new Set<FailureType>(['mcp.shutting_down', 'mcp.task_running']);

/**
 * Failures after which the tool may have run: the request reached the server and nothing says it
 * did not run. A call past its timeout (whether the server still answers ping, so the call probably
 * still runs, or not, so its process is dropped), a connection lost mid-call, an answer that breaks
 * the protocol, an MCP task its server forgot. A tool not marked idempotent or read-only is not run
 * again after one of these. (A task's poll failing, `mcp.task_poll_failed`, is not listed: the next
 * attempt polls the same task instead of running the tool again.)
 * Failures not listed either never reached the server (`mcp.unreachable`, `mcp.connect_failed`) or
 * were answered by it as failed (`mcp.server_error`): another attempt cannot duplicate a side effect.
 */
export const MAY_HAVE_RUN_FAILURES: ReadonlySet<FailureType> = new Set<FailureType>([
  'mcp.timeout',
  'mcp.connection_lost',
  'mcp.connection_closed',
  'mcp.protocol_error',
  'mcp.task_lost',
]);

/**
 * Temporal's retry policy of `callTool`: no attempt limit, so lost workers are waited out however
 * often they die. Its interval applies only to attempts lost to a heartbeat (or start-to-close)
 * timeout, which have already waited out that timeout: retry at once (0.1 s; a server with
 * Temporal's default timer shift starts it up to a second later anyway, src/temporal/server-tuning.ts),
 * backing off only so that a call that kills every worker it runs on does not do so more than
 * every ten seconds.
 */
export const TOOL_CALL_RETRY_POLICY: RetryPolicy = {
  initialInterval: '100 ms',
  backoffCoefficient: 2,
  maximumInterval: '10 seconds',
  maximumAttempts: Number.POSITIVE_INFINITY,
};

/**
 * How long one attempt may take, from the server's `timeoutMs` (which progress notifications reset):
 * the activity gives up on the call itself at `deadlineMs`, a failure it counts, always before
 * Temporal's `startToCloseMs`, whose timeout it could not tell from a lost worker (and so would not
 * count). The start-to-close margin leaves room for a reconnect, the ping after a timeout and the report.
 */
export function toolAttemptTimeouts(serverTimeoutMs: number): { deadlineMs: number; startToCloseMs: number } {
  return { deadlineMs: serverTimeoutMs + 20_000, startToCloseMs: serverTimeoutMs + 30_000 };
}

/**
 * Temporal's retry policy of a fast tool call (a local activity): the tool's backoff, and at most
 * its attempt budget (see the module comment). Its attempts are counted by the attempt number.
 */
export function fastToolCallRetryPolicy(idempotent: boolean): RetryPolicy {
  return {
    initialInterval: `${FAILURE_BACKOFF.initialMs} ms`,
    backoffCoefficient: FAILURE_BACKOFF.coefficient,
    maximumInterval: `${FAILURE_BACKOFF.maximumMs} ms`,
    maximumAttempts: toolAttemptBudget(idempotent),
  };
}

/**
 * The tool failures of the earlier attempts of a fast call: each earlier attempt of a local
 * activity ran on this worker and failed (worker loss restarts the local activity at attempt 1).
 */
export function fastToolFailuresBefore(attempt: number): number {
  return Math.max(0, attempt - 1);
}

/** How many of its own failures a tool call may have (its attempt budget). */
export function toolAttemptBudget(idempotent: boolean): number {
  return idempotent ? IDEMPOTENT_TOOL_ATTEMPTS : NON_IDEMPOTENT_TOOL_ATTEMPTS;
}

/** A failure of one attempt of `callTool`, as the classifier typed it. */
export interface ToolAttemptFailure {
  type: string | undefined;
  retryable: boolean;
}

/**
 * What to do with a failed attempt:
 * - `pass`: not the tool's failure to count (already final, or the worker's): throw it as it is;
 * - `retry`: the tool failed and has budget left: record `toolFailures`, retry after `delayMs`;
 * - `give_up`: the tool failed for the `toolFailures`-th time, its whole budget, or (`mayHaveRun`)
 *   it may have run and is not marked idempotent or read-only: fail for good.
 */
export type ToolFailureDecision =
  | { kind: 'pass' }
  | { kind: 'retry'; toolFailures: number; delayMs: number }
  | { kind: 'give_up'; toolFailures: number; mayHaveRun?: true };

/** Decides a failed attempt, given the tool failures of the earlier attempts. */
export function decideToolFailure(failure: ToolAttemptFailure, failuresBefore: number, idempotent: boolean): ToolFailureDecision {
  if (!failure.retryable) return { kind: 'pass' };
  if (failure.type !== undefined && WORKER_SIDE_FAILURES.has(failure.type as FailureType)) return { kind: 'pass' };
  const toolFailures = failuresBefore + 1;
  if (!idempotent && failure.type !== undefined && MAY_HAVE_RUN_FAILURES.has(failure.type as FailureType)) {
    return { kind: 'give_up', toolFailures, mayHaveRun: true };
  }
  if (toolFailures >= toolAttemptBudget(idempotent)) return { kind: 'give_up', toolFailures };
  const delayMs = Math.min(FAILURE_BACKOFF.maximumMs, FAILURE_BACKOFF.initialMs * FAILURE_BACKOFF.coefficient ** (toolFailures - 1));
  return { kind: 'retry', toolFailures, delayMs };
}
