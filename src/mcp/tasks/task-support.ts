/**
 * Whether a call runs as an MCP task, and on which wire (issue 27). Two wires exist:
 *
 * - **2025-11-25 tasks** (`tasks-2025`, the spec's experimental tasks, on a 2025 connection): the
 *   tool says so in its listing (`execution.taskSupport`: `"optional"` or `"required"`) and the
 *   server in its capabilities (`tasks.requests.tools.call`); the call is then sent with
 *   `params.task`, and the server answers with a task.
 * - **the 2026-07-28 tasks extension** (`tasks-extension`, `io.modelcontextprotocol/tasks`, on a
 *   2026-07-28 connection): the server advertises the extension in `server/discover`; the host then
 *   declares it on each call's capabilities, and the server decides per call whether to answer
 *   with a task or with the result. A tool listed with `taskSupport: "forbidden"` is called plainly.
 *
 * A call with neither goes out as a plain `tools/call` (a task-only tool on a server without
 * tasks fails there, with the server's own error). Pure: reads only what the connection negotiated.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ToolDefinition } from '../tools/tool-definitions';
import { TASKS_EXTENSION } from './task-wire';

/** A tool's `execution.taskSupport` (MCP 2025-11-25): absent means `forbidden`. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** The wire a task speaks. */
export type TaskWire = 'tasks-2025' | 'tasks-extension';

const SUPPORT: ReadonlySet<string> = new Set<TaskSupport>(['forbidden', 'optional', 'required']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A listed tool's `execution.taskSupport`, as sent (undefined when absent or not a known value). */
export function taskSupportOf(rawTool: unknown): TaskSupport | undefined {
  if (!isObject(rawTool) || !isObject(rawTool.execution)) return undefined;
  const support = rawTool.execution.taskSupport;
  return typeof support === 'string' && SUPPORT.has(support) ? (support as TaskSupport) : undefined;
}

/** Whether the server on `client` takes `tools/call` as a 2025-11-25 task (`capabilities.tasks.requests.tools.call`). */
export function serverTakesToolTasks(client: Client): boolean {
  const tasks: unknown = (client.getServerCapabilities() as Record<string, unknown> | undefined)?.tasks;
  if (!isObject(tasks) || !isObject(tasks.requests) || !isObject(tasks.requests.tools)) return false;
  return isObject(tasks.requests.tools.call);
}

/** Whether the server on `client` advertises the 2026-07-28 tasks extension. */
export function serverHasTasksExtension(client: Client): boolean {
  const extensions: unknown = (client.getServerCapabilities() as Record<string, unknown> | undefined)?.extensions;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/**
 * The wire of a call of the tool `definition` describes over `client`, or undefined for a plain
 * `tools/call` (see the module comment).
 */
export function taskWireFor(client: Client, definition: ToolDefinition | undefined): TaskWire | undefined {
  if (client.getProtocolEra() === 'modern') {
    return serverHasTasksExtension(client) && definition?.taskSupport !== 'forbidden' ? 'tasks-extension' : undefined;
  }
  const support = definition?.taskSupport;
  return (support === 'optional' || support === 'required') && serverTakesToolTasks(client) ? 'tasks-2025' : undefined;
}

/** The wire on which a task id recorded by an earlier attempt is polled: the connection's era decides. */
export function resumeWireFor(client: Client): TaskWire {
  return client.getProtocolEra() === 'modern' ? 'tasks-extension' : 'tasks-2025';
}
