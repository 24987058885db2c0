/**
 * The `callTool` activity's branch for a call its server runs as an MCP task (issue 27; the wire
 * is src/mcp/tasks): the call creates the task, or resumes the one an earlier attempt created, and
 * the task id rides in the attempt's heartbeat details from the moment it is known
 * (`ToolAttemptBudget.noteTask`), so an attempt after a lost worker polls the same task instead of
 * calling the tool again: the tool runs once however many workers die under it.
 *
 * What the activity does around the task:
 * - the task id is heartbeated at once, the task's status (and status message) on each change;
 * - an attempt that reaches its deadline with the task still running ends (`mcp.task_running`,
 *   costing no budget) and the next one polls on, so a task may outlast any one attempt (a fast
 *   tool's call, a local activity without heartbeats, cancels the task and fails as `mcp.timeout`);
 * - Temporal cancelling the activity because it was asked to (`mcp-host cancel`, a cancelled turn
 *   or workflow) sends `tasks/cancel`; a worker shutting down or an attempt timed out does not,
 *   since the next attempt resumes the task; a final failure while the task runs cancels it too;
 * - a 2026-07-28 task's input requests go to the call's asker (the conversation answers them,
 *   src/activities/call-inputs.ts) and back with `tasks/update`; a 2025 server's requests during
 *   `tasks/result` reach the same asker through the connection's handlers;
 * - a task that failed, was cancelled or is lost is forgotten, so a retry (when the tool retry
 *   policy allows one) calls the tool afresh; a poll that failed (`mcp.task_poll_failed`) keeps it,
 *   and its connection is dropped when the transport broke, so the next attempt reconnects;
 * - the `tools/call` that creates the task is treated as a plain call's: its transport failures,
 *   timeout and garbage answer are the same failures, and a 2026-07-28 `HeaderMismatch` lists the
 *   server again and sends it once more. Unlike a plain call, a timed-out creation does not ping
 *   the server to drop a wedged connection.
 */
import type { Context } from '@temporalio/activity';
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { classifyError } from '../errors/classify-error';
import { HostError } from '../errors/host-error';
import type { McpServerConfig } from '../mcp/config';
import type { McpConnections } from '../mcp/mcp-connections';
import type { CallAsker } from '../mcp/server-requests';
import { describeViolation, isProtocolViolation } from '../mcp/protocol-errors';
import { resumeWireFor, TaskDriver, taskStillRunning, taskWireFor, type TaskCallbacks, type TaskWire } from '../mcp/tasks';
import { HEADER_MISMATCH, paramHeadersForCall, relistForCall } from '../mcp/tools/tool-call-definition';
import type { ToolDefinition } from '../mcp/tools/tool-definitions';
import type { ToolAttemptBudget } from './tool-attempt-budget';
import type { ToolCallInput } from './types';
import { trace } from '@opentelemetry/api';

/** What the branch needs of the attempt. */
export interface TaskAttempt {
  connections: McpConnections;
  server: McpServerConfig;
  input: ToolCallInput;
  client: Client;
  /** The tool as this worker last listed it. */
  definition: ToolDefinition | undefined;
  context: Context;
  budget: ToolAttemptBudget;
  /** Temporal cancelled the activity. */
  cancelled: AbortSignal;
  /** The attempt's own deadline passed. */
  deadline: AbortSignal;
  /** The server's `timeoutMs`: each request's timeout. */
  timeoutMs: number;
  /** The attempt's deadline, ms (bounds a 2025-11-25 `tasks/result`, which waits for the task). */
  deadlineMs: number;
  /** Heartbeats now (the budget's count, the call's last progress, its task). */
  heartbeat: () => void;
  /** A progress notification of the call. */
  onprogress: (update: unknown) => void;
  /** The `tools/call` params (name, arguments; on a 2026-07-28 round after `input_required`, `inputResponses` and `requestState`). */
  callParams: Record<string, unknown>;
  /**
   * Who answers the server's requests: a 2026-07-28 task's `inputRequests` are handed to it (a
   * 2025 server's, sent on the connection, reach it without this). Without one, a task that asks
   * for input is cancelled.
   */
  asker?: CallAsker;
}

/**
 * The wire this attempt's call runs on as a task, or undefined for a plain `tools/call`: the one
 * of the task an earlier attempt (or an earlier send of this one) recorded, else what the tool's
 * listing and the server's capabilities say (src/mcp/tasks/task-support.ts).
 */
export function taskWireOfAttempt(client: Client, definition: ToolDefinition | undefined, budget: ToolAttemptBudget): TaskWire | undefined {
  return budget.currentTaskId !== undefined ? resumeWireFor(client) : taskWireFor(client, definition);
}

/** Runs the call as a task on `wire` (see the module comment); resolves with the tool's result as sent. */
export async function callToolAsTask(wire: TaskWire, attempt: TaskAttempt): Promise<unknown> {
  const { budget, client, connections, input, server } = attempt;
  const signal = AbortSignal.any([attempt.cancelled, attempt.deadline]);
  // The tool call's span (src/telemetry/traced-activities.ts) names the task it runs as.
  const span = trace.getActiveSpan();
  const driverFor = (definition: ToolDefinition | undefined): TaskDriver =>
    new TaskDriver(
      {
        client,
        wire,
        server: input.server,
        tool: input.tool,
        signal,
        requestTimeoutMs: attempt.timeoutMs,
        resultTimeoutMs: attempt.deadlineMs,
        headers: paramHeadersForCall(client, server, definition, input.arguments),
        onprogress: attempt.onprogress,
      },
      {
        onTaskId: (taskId) => {
          span?.setAttribute('mcp_host.task.id', taskId);
          budget.noteTask(taskId);
          attempt.heartbeat();
        },
        onStatus: (task) => {
          span?.setAttribute('mcp_host.task.id', task.taskId);
          budget.noteTask(task.taskId, { status: task.status, ...(task.statusMessage !== undefined ? { message: task.statusMessage } : {}) });
          attempt.heartbeat();
        },
        ...(attempt.asker !== undefined ? { ask: askerOf(attempt.asker, attempt) } : {}),
      },
    );
  let driver = driverFor(attempt.definition);
  try {
    const resumed = budget.currentTaskId;
    if (resumed !== undefined) {
      attempt.context.log.info(`MCP server "${input.server}" tool "${input.tool}": polling the task ${resumed} of an earlier attempt instead of calling the tool again`);
      return await driver.resume(resumed);
    }
    const extra = { ...attempt.callParams };
    delete extra.name;
    delete extra.arguments;
    try {
      return await driver.start(input.arguments, extra);
    } catch (err) {
      if (!(err instanceof ProtocolError && err.code === HEADER_MISMATCH) || driver.taskId !== undefined || client.getProtocolEra() !== 'modern') throw err;
      // Refused for its headers before the tool ran: the tool's schema changed since the listing.
      await relistForCall(connections, server, signal);
      driver = driverFor(connections.toolDefinitions.get(input.server, input.tool));
      return await driver.start(input.arguments, extra);
    }
  } catch (err) {
    throw await settled(err, driver, attempt);
  }
}

/**
 * The driver's `ask` over the call's asker (src/mcp/server-requests.ts, which takes the request to
 * the conversation and waits for its answer, asking nothing twice across attempts). An answer the
 * host refuses to give (a denied completion) cannot go back in `tasks/update`: the call fails
 * final, and its task is cancelled (see {@link settled}).
 */
function askerOf(asker: CallAsker, attempt: TaskAttempt): NonNullable<TaskCallbacks['ask']> {
  return async (key, request) => {
    const response = await asker.ask(request);
    if ('result' in response) return response.result;
    throw new HostError(
      `MCP server "${attempt.input.server}" asked for ${request.method} (${key}) during the task of tools/call "${attempt.input.tool}", which the host refused (${response.error.message}); the task is cancelled`,
      'mcp.task_cancelled',
      false,
    );
  };
}

/** What the attempt throws for `err`, after doing what the task needs (forget it, cancel it). */
async function settled(err: unknown, driver: TaskDriver, attempt: TaskAttempt): Promise<unknown> {
  const { input, budget } = attempt;
  if (driver.spent) budget.noteTask(undefined);
  // A poll that failed at the transport level is no transport failure to the pool (it is decided
  // here): the connection is dropped by hand, so the next attempt reconnects.
  if (driver.transportBroken) attempt.connections.reset(input.server, attempt.client);
  if (attempt.cancelled.aborted) {
    const details = attempt.context.cancellationDetails;
    if (driver.taskId !== undefined && !driver.spent && details?.cancelRequested === true && !details.workerShutdown) {
      const taken = await driver.cancel();
      attempt.context.log.info(`MCP server "${input.server}" tool "${input.tool}": tasks/cancel for the task ${driver.taskId} ${taken ? 'sent' : 'failed'}`);
    }
    return err;
  }
  // A final failure with the task still running: no attempt will resume it, so it is stopped.
  if (!driver.spent && driver.taskId !== undefined && !attempt.deadline.aborted && classifyError(err).nonRetryable) {
    await driver.cancel();
    budget.noteTask(undefined);
    return err;
  }
  if (attempt.deadline.aborted && driver.taskId !== undefined && !driver.spent) {
    if (!attempt.context.info.isLocal) return taskStillRunning(input, driver.taskId, attempt.deadlineMs);
    // A fast tool's call (a local activity) has no heartbeats to hand the task on: it is given up,
    // and the call fails as a plain one past its deadline would.
    await driver.cancel();
    return new HostError(`tools/call "${input.tool}" on MCP server "${input.server}" did not finish within ${attempt.deadlineMs} ms (its task ${driver.taskId} was cancelled)`, 'mcp.timeout', true);
  }
  if (driver.taskId === undefined && isProtocolViolation(err)) {
    return new HostError(
      `MCP server "${input.server}" broke the protocol during tools/call "${input.tool}": it sent something that is not a JSON-RPC answer (${describeViolation(err)})`,
      'mcp.protocol_error',
      true,
    );
  }
  return err;
}
