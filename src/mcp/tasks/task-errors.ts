/**
 * The failures of a call run as an MCP task, each decided here (type, retryability) once:
 *
 * - **Lost** (`mcp.task_lost`, retryable, "may have run"): the server no longer knows a task the
 *   call had (JSON-RPC -32602 to `tasks/get` or `tasks/result`: it restarted, or dropped the task
 *   after its TTL; or -32601: it no longer has tasks at all), or the task outlived its TTL without
 *   ending. The tool may have run, in part or
 *   whole, and its result is gone: resuming cannot help, and running the tool again could repeat
 *   what it did. So it is one of the tool retry policy's "may have run" failures: a tool not marked
 *   idempotent or read-only is not run again (Claude gets the host's `is_error` result saying so and
 *   can check), an idempotent one is called afresh, as a new task, within its budget.
 * - **Cancelled** (`mcp.task_cancelled`, final): the server cancelled the task (the host did not),
 *   or the task asked for input the host was given no way to answer (the host cancels it then).
 *   Calling again would meet the same end; Claude gets the host's `is_error` result with the reason.
 * - **Still running at the attempt's deadline** (`mcp.task_running`, retryable, not the tool's
 *   failure): the attempt ends (its start-to-close timeout is near) and the next one polls the same
 *   task: a task may run longer than any one attempt, bounded by its server's TTL.
 * - **Polling failed** (`mcp.task_poll_failed`, retryable, counted): a `tasks/get` (or
 *   `tasks/update`, `tasks/result`) failed in a way another attempt may not (the connection broke,
 *   the server was unreachable or timed out, a retryable JSON-RPC error). The task exists, so the
 *   next attempt polls it: the tool does not run again, whether or not it is idempotent.
 *
 * Not failures of their own: a task that ended `failed` is its call's JSON-RPC error (2026-07-28:
 * the task's `error`; 2025-11-25: what `tasks/result` answers, which may also be an `isError`
 * result, then data for Claude like any tool error), classified as if `tools/call` had answered it
 * (src/errors/classify-error.ts). An answer that is not a task where one must be is the server
 * breaking the protocol (`mcp.protocol_error`).
 */
import { HostError } from '../../errors/host-error';

/** Which call a task belongs to, for messages. */
export interface TaskCallName {
  server: string;
  tool: string;
}

function of(call: TaskCallName): string {
  return `tools/call "${call.tool}" on MCP server "${call.server}"`;
}

/** The server no longer knows the task, or it outlived its TTL (see the module comment). */
export function taskLost(call: TaskCallName, taskId: string, why: string): HostError {
  return new HostError(`the task ${taskId} of ${of(call)} is lost (${why}): the tool may have run, and its result is gone`, 'mcp.task_lost', true);
}

/** The server cancelled the task, or the host did for input it cannot give. */
export function taskCancelled(call: TaskCallName, taskId: string, why: string): HostError {
  return new HostError(`the task ${taskId} of ${of(call)} was cancelled (${why}); the tool may have run in part`, 'mcp.task_cancelled', false);
}

/** The attempt's deadline came with the task still running. */
export function taskStillRunning(call: TaskCallName, taskId: string, afterMs: number): HostError {
  return new HostError(`the task ${taskId} of ${of(call)} was still running after ${afterMs} ms; the next attempt polls it again`, 'mcp.task_running', true);
}

/** Polling the task failed in a way another attempt may not. */
export function taskPollFailed(call: TaskCallName, taskId: string, what: string): HostError {
  return new HostError(`polling the task ${taskId} of ${of(call)} failed (${what}); the next attempt polls it again`, 'mcp.task_poll_failed', true);
}

/** The server answered something that is not a task where a task must be. */
export function notATask(call: TaskCallName, what: string): HostError {
  return new HostError(`MCP server "${call.server}" broke the protocol during ${of(call)}: ${what}`, 'mcp.protocol_error', true);
}
