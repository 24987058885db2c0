/**
 * The 2026-07-28 tasks extension at the transport's edge. The MCP SDK v2 client (2.4.0) knows
 * nothing of the extension: it neither declares it in a request's capabilities (`_meta`, where its
 * own envelope puts the client's capabilities) nor accepts a `tools/call` answered with
 * `resultType: "task"` (it rejects any `resultType` but `complete` and `input_required`). Its
 * `tasks/get` and `tasks/cancel` it does let through (the extension reuses those names), and
 * `tasks/update` is an extension method it sends as it is.
 *
 * So a call that may become a task is marked ({@link markForTasks}, a `_meta` key of the host's
 * that never reaches the wire), and the client's transport is wrapped once ({@link installTasksEdge}):
 * - on the way out, a marked request loses the mark and gains the extension in the capabilities its
 *   envelope declares (merged: the client's other capabilities stay), and its id is remembered;
 * - on the way in, the answer to such a request that is a task is handed on as a `complete` result
 *   with no content and the task under a host `_meta` key ({@link taskHandleOf}), which the SDK
 *   passes through; any other answer passes unchanged.
 * Only the requests that declared the extension can get a task through: the spec forbids a task
 * answer to any other, and the SDK rejects one as before.
 */
import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { CLIENT_CAPABILITIES_META, TASKS_EXTENSION } from './task-wire';

/** The host's mark on a request that declares the extension (removed before sending). */
const MARK = 'durable-mcp-host/tasks-extension';
/** Where a task answer is handed to the caller (added after receiving; never on the wire). */
const HANDLE = 'durable-mcp-host/task-handle';
/** A bound on remembered ids whose answer never came (an aborted request). */
const MAX_PENDING = 1000;

type Params = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `params` marked to declare the tasks extension when sent over a transport with the edge. */
export function markForTasks(params: Params): Params {
  const meta = isObject(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [MARK]: true } };
}

/** The task a marked request was answered with (see the module comment); undefined for a plain result. */
export function taskHandleOf(result: unknown): unknown {
  if (!isObject(result) || !isObject(result._meta) || !(HANDLE in result._meta)) return undefined;
  return result._meta[HANDLE];
}

/** The marked request's params, unmarked and declaring the extension in its capabilities. */
function declared(params: Params): Params {
  const meta: Record<string, unknown> = { ...(isObject(params._meta) ? params._meta : {}) };
  delete meta[MARK];
  const capabilities = isObject(meta[CLIENT_CAPABILITIES_META]) ? meta[CLIENT_CAPABILITIES_META] : {};
  const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
  return {
    ...params,
    _meta: { ...meta, [CLIENT_CAPABILITIES_META]: { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } } },
  };
}

const edged = new WeakSet<Transport>();

/**
 * Wraps `client`'s transport (once per transport; a reconnect has a new one) as the module comment
 * says. Call before sending a marked request.
 */
export function installTasksEdge(client: Client): void {
  const transport = client.transport;
  if (transport === undefined || edged.has(transport)) return;
  edged.add(transport);
  const pending = new Set<string | number>();

  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> => {
    const request = message as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof request.method !== 'string' || !isObject(request.params) || !isObject(request.params._meta) || request.params._meta[MARK] !== true) {
      return send(message, options);
    }
    if (typeof request.id === 'string' || typeof request.id === 'number') {
      if (pending.size >= MAX_PENDING) pending.clear();
      pending.add(request.id);
    }
    return send({ ...message, params: declared(request.params) }, options);
  };

  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const answer = message as { id?: unknown; result?: unknown };
    if ((typeof answer.id === 'string' || typeof answer.id === 'number') && pending.delete(answer.id)) {
      if (isObject(answer.result) && answer.result.resultType === 'task') {
        const task: Record<string, unknown> = { ...answer.result };
        delete task.resultType;
        const handed = { ...message, result: { resultType: 'complete', content: [], _meta: { [HANDLE]: task } } } as JSONRPCMessage;
        receive?.(handed, extra);
        return;
      }
    }
    receive?.(message, extra);
  };
}
