/**
 * The host as a 2025-11-25 task receiver, at the transport's edge: a server may send its
 * `elicitation/create` or `sampling/createMessage` as a task (`params.task`), answered at once
 * with a `CreateTaskResult`, then poll `tasks/get` and fetch the answer with `tasks/result`.
 *
 * The MCP SDK v2 client (2.4.0) has no runtime for these tasks: its handler for such a request
 * validates the result as an `ElicitResult`/`CreateMessageResult` (a `CreateTaskResult` is refused),
 * and it knows no handler for `tasks/get`, `tasks/result`, `tasks/cancel` or `tasks/list`. It does
 * keep a `tasks` key in the capabilities it is given, but those capabilities also go in every
 * 2026-07-28 request's `_meta`, where 2025-11-25 tasks mean nothing. So {@link installTaskReceiver}
 * wraps the client's transport (each transport once; a reconnect has a new transport, a new edge):
 * - on the way out, `initialize` (the 2025 handshake; a 2026-07-28 connection has none) declares
 *   the receiver in its capabilities: `tasks.requests.elicitation.create`, and
 *   `tasks.requests.sampling.createMessage` unless the server's sampling policy is `deny` (as
 *   src/mcp/server-requests.ts's capabilities), with `tasks.list` and `tasks.cancel`;
 * - from then on, on the way in, such a request sent as a task, and every `tasks/*` request, is
 *   answered here and never reaches the SDK; anything else passes unchanged. (The SDK sets its own
 *   `onmessage` before it sends `initialize`, so the edge takes it over then.)
 *
 * A task's work is the request's answer as src/mcp/server-requests.ts gets it for a plain request
 * ({@link answerServerInput}): the first call in flight on the connection hands it to its
 * conversation. While it waits the task is `input_required` (a form, for the user) or `working`
 * (a completion); then `completed` with the answer, or `failed` with the JSON-RPC error a plain
 * request would have got. `tasks/cancel` (or the end of the task's TTL) withdraws the question: it
 * leaves the conversation's waiting list, as a plain request the server cancels does. With no call in flight the host answers alone, as for a plain request
 * (a form cancelled, a completion refused), and the task is created already ended with that answer.
 * Tasks live in memory with the connection (src/mcp/tasks/receiver-tasks.ts): a lost worker loses
 * them, and the server's tool call is retried like any 2025 call.
 */
import { isSpecType, RELATED_TASK_META_KEY, type Client, type ClientCapabilities, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config';
import type { ServerInputResponse } from '../../input/input-responses';
import { answerServerInput } from '../server-requests';
import { INVALID_PARAMS, ReceiverTasks, type ReceiverTask } from './receiver-tasks';

type Capabilities = NonNullable<ClientCapabilities['tasks']>;

/** The requests about tasks a requestor sends its receiver (2025-11-25). */
const TASKS_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list']);
type RequestId = string | number;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `tasks` capability the host declares to `server` as a receiver. */
export function receiverCapabilities(server: McpServerConfig): Capabilities {
  return {
    list: {},
    cancel: {},
    requests: { elicitation: { create: {} }, ...(server.sampling !== 'deny' ? { sampling: { createMessage: {} } } : {}) },
  };
}

/** How a request taken as a task is checked, and what its task says while it waits (never the request's content). */
interface Received {
  waiting: 'working' | 'input_required';
  statusMessage: string;
  valid: (request: unknown) => boolean;
}

/** The requests the host takes as tasks from `server`. */
function receivedMethods(server: McpServerConfig): Map<string, Received> {
  const methods = new Map<string, Received>([['elicitation/create', { waiting: 'input_required', statusMessage: "Waiting for the user's answer.", valid: isSpecType.ElicitRequest }]]);
  if (server.sampling !== 'deny') {
    methods.set('sampling/createMessage', { waiting: 'working', statusMessage: 'Waiting for the completion.', valid: isSpecType.CreateMessageRequest });
  }
  return methods;
}

const edged = new WeakSet<Transport>();

/**
 * Makes the host a task receiver on `transport`, `client`'s connection to `server`, as the module
 * comment says. Call before `client.connect(transport)`.
 */
export function installTaskReceiver(client: Client, transport: Transport, server: McpServerConfig): void {
  if (edged.has(transport)) return;
  edged.add(transport);
  const methods = receivedMethods(server);
  const tasks = new ReceiverTasks();
  const send = transport.send.bind(transport);

  const reply = (id: RequestId, answer: ServerInputResponse): void => {
    const message = ('error' in answer ? { jsonrpc: '2.0', id, error: answer.error } : { jsonrpc: '2.0', id, result: answer.result }) as JSONRPCMessage;
    // A connection already closed has nobody to tell.
    send(message).catch(() => undefined);
  };
  const invalid = (message: string): ServerInputResponse => ({ error: { code: INVALID_PARAMS, message } });
  const notFound = invalid('Failed to retrieve task: Task not found');
  const asResult = (task: ReceiverTask): ServerInputResponse => ({ result: { ...task } });

  /**
   * Starts a task for a request sent as one. False when it goes to the SDK's handlers as a plain
   * request: not sent as a task, or the connection holds too many (the spec lets a receiver decline).
   */
  const startTask = (id: RequestId, request: { method: string; params: Record<string, unknown> }): boolean => {
    const how = methods.get(request.method);
    const requested = request.params.task;
    if (how === undefined || !isObject(requested) || !tasks.hasRoom()) return false;
    if (!how.valid(request)) {
      reply(id, invalid(`Invalid ${request.method} request`));
      return true;
    }
    const params = { ...request.params };
    delete params.task;
    // Cancelled or expired, the task withdraws its question from the conversation.
    const withdrawal = new AbortController();
    const { asked, answer } = answerServerInput(client, { method: request.method, params }, withdrawal.signal);
    const task = tasks.start(answer, { requestedTtl: requested.ttl, waiting: how.waiting, statusMessage: how.statusMessage, withdraw: () => withdrawal.abort() });
    if (asked) reply(id, { result: { task } });
    // Answered by the host alone, at once: the task is created ended.
    else void tasks.result(task.taskId)?.then(() => reply(id, { result: { task: tasks.get(task.taskId) ?? task } }));
    return true;
  };

  /** Answers a `tasks/*` request. */
  const answerTasksRequest = (id: RequestId, method: string, params: Record<string, unknown>): void => {
    const taskId = typeof params.taskId === 'string' ? params.taskId : undefined;
    if (method === 'tasks/list') {
      // Every task fits one page: there is no cursor to continue from.
      reply(id, params.cursor !== undefined ? invalid('Invalid cursor') : { result: { tasks: tasks.list() } });
      return;
    }
    if (taskId === undefined) {
      reply(id, invalid(`${method} needs a taskId`));
      return;
    }
    if (method === 'tasks/get') {
      const task = tasks.get(taskId);
      reply(id, task !== undefined ? asResult(task) : notFound);
      return;
    }
    if (method === 'tasks/cancel') {
      const task = tasks.cancel(taskId);
      reply(id, task === undefined ? notFound : task === 'terminal' ? invalid(`Cannot cancel task in terminal status: ${tasks.get(taskId)?.status ?? 'ended'}`) : asResult(task));
      return;
    }
    // tasks/result: blocks until the task has ended.
    const result = tasks.result(taskId);
    if (result === undefined) {
      reply(id, notFound);
      return;
    }
    void result.then((answer) => {
      if ('error' in answer) reply(id, answer);
      else reply(id, { result: { ...answer.result, _meta: { ...(isObject(answer.result._meta) ? answer.result._meta : {}), [RELATED_TASK_META_KEY]: { taskId } } } });
    });
  };

  /** Whether the edge answered `message` itself. */
  const took = (message: JSONRPCMessage): boolean => {
    const request = message as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof request.method !== 'string' || (typeof request.id !== 'string' && typeof request.id !== 'number')) return false;
    const params = isObject(request.params) ? request.params : {};
    if (TASKS_METHODS.has(request.method)) {
      answerTasksRequest(request.id, request.method, params);
      return true;
    }
    return startTask(request.id, { method: request.method, params });
  };

  const takeOver = (): void => {
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (!took(message)) receive?.(message, extra);
    };
  };

  let declared = false;
  transport.send = (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> => {
    const request = message as { method?: unknown; params?: unknown };
    if (declared || request.method !== 'initialize' || !isObject(request.params)) return send(message, options);
    declared = true;
    takeOver();
    const capabilities = isObject(request.params.capabilities) ? request.params.capabilities : {};
    return send({ ...message, params: { ...request.params, capabilities: { ...capabilities, tasks: receiverCapabilities(server) } } }, options);
  };
}
