/**
 * The shapes of MCP tasks on both wires, read into one neutral {@link TaskSnapshot}:
 *
 * - 2025-11-25: `tools/call` answers `CreateTaskResult` `{task: Task}`; `tasks/get` answers the
 *   `Task` itself (`taskId`, `status`, `statusMessage`, `createdAt`, `ttl`, `pollInterval`); the
 *   tool's result comes from `tasks/result`.
 * - 2026-07-28 extension (`io.modelcontextprotocol/tasks`): `tools/call` answers the task flat,
 *   with `resultType: "task"`; `tasks/get` answers the task with, by status, `result` (the tool's
 *   result, inline), `error` (the JSON-RPC error of a `failed` task) or `inputRequests`
 *   (`input_required`); `ttlMs` and `pollIntervalMs` instead of `ttl` and `pollInterval`.
 *
 * Readers are lenient about what they do not need and strict about what they do: a task without a
 * string `taskId` or a known `status` is no task (the caller fails the call as a protocol error).
 */

/** The extension's identifier (2026-07-28), in capabilities and in each request's `_meta`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Where a 2026-07-28 request carries the client's capabilities (`_meta`). */
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** A task's status on either wire. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** A request a task asks the client to answer (2026-07-28 `inputRequests` entry): `elicitation/create`, `sampling/createMessage`, `roots/list`. */
export interface TaskInputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** One look at a task, whichever wire it came from. */
export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** The server's suggested polling interval, ms. */
  pollIntervalMs?: number;
  /** How long the server keeps the task from its creation, ms; null: without limit. */
  ttlMs?: number | null;
  /** When the server created it (ISO 8601, the server's clock). */
  createdAt?: string;
  /** 2026-07-28, `completed`: the tool's result. */
  result?: Record<string, unknown>;
  /** 2026-07-28, `failed`: the JSON-RPC error the call ended with. */
  error?: { code: number; message: string; data?: unknown };
  /** 2026-07-28, `input_required`: what the server asks, by key. */
  inputRequests?: Record<string, TaskInputRequest>;
}

/** Whether a task in `status` has ended (`completed`, `failed`, `cancelled`). */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finiteMs(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function ttlOf(value: unknown): number | null | undefined {
  return value === null ? null : finiteMs(value);
}

/** The fields both wires share; undefined when `raw` is not a task. */
function baseOf(raw: unknown): Pick<TaskSnapshot, 'taskId' | 'status' | 'statusMessage' | 'createdAt'> | undefined {
  if (!isObject(raw) || typeof raw.taskId !== 'string' || raw.taskId === '') return undefined;
  if (typeof raw.status !== 'string' || !STATUSES.has(raw.status)) return undefined;
  return {
    taskId: raw.taskId,
    status: raw.status as TaskStatus,
    ...(typeof raw.statusMessage === 'string' ? { statusMessage: raw.statusMessage } : {}),
    ...(typeof raw.createdAt === 'string' ? { createdAt: raw.createdAt } : {}),
  };
}

/** A 2025-11-25 `Task` (the `task` of `CreateTaskResult`, or a `tasks/get` answer); undefined when it is not one. */
export function readTask2025(raw: unknown): TaskSnapshot | undefined {
  const base = baseOf(raw);
  if (base === undefined || !isObject(raw)) return undefined;
  const pollIntervalMs = finiteMs(raw.pollInterval);
  const ttlMs = ttlOf(raw.ttl);
  return { ...base, ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}), ...(ttlMs !== undefined ? { ttlMs } : {}) };
}

/**
 * What a 2025-11-25 `tools/call` sent with `params.task` answered: a task (`{task: {...}}`), the
 * tool's result itself (a server may run an `optional` tool without one), or neither (`invalid`:
 * a `task` field that is not a task).
 */
export function readCreated2025(raw: unknown): { task: TaskSnapshot } | { result: unknown } | { invalid: string } {
  if (!isObject(raw) || !('task' in raw)) return { result: raw };
  const task = readTask2025(raw.task);
  return task !== undefined ? { task } : { invalid: 'a CreateTaskResult whose task has no taskId or no known status' };
}

function inputRequestsOf(value: unknown): Record<string, TaskInputRequest> | undefined {
  if (!isObject(value)) return undefined;
  const requests: Record<string, TaskInputRequest> = {};
  for (const [key, request] of Object.entries(value)) {
    if (!isObject(request) || typeof request.method !== 'string') continue;
    requests[key] = { method: request.method, ...(isObject(request.params) ? { params: request.params } : {}) };
  }
  return requests;
}

function errorOf(value: unknown): TaskSnapshot['error'] {
  if (!isObject(value)) return undefined;
  const code = typeof value.code === 'number' && Number.isInteger(value.code) ? value.code : undefined;
  if (code === undefined) return undefined;
  return { code, message: typeof value.message === 'string' ? value.message : 'the task failed', ...('data' in value ? { data: value.data } : {}) };
}

/**
 * A 2026-07-28 task (a `tasks/get` answer, or with `creation` a `resultType: "task"` answer);
 * undefined when it is not one, or when a `tasks/get` answer's status lacks what it must carry
 * (`result` when completed, `error` when failed). A creation answer is a plain `Task`, which
 * carries neither: its seed status may still be terminal, and the caller then asks `tasks/get`.
 */
export function readTask2026(raw: unknown, creation = false): TaskSnapshot | undefined {
  const base = baseOf(raw);
  if (base === undefined || !isObject(raw)) return undefined;
  const pollIntervalMs = finiteMs(raw.pollIntervalMs);
  const ttlMs = ttlOf(raw.ttlMs);
  const snapshot: TaskSnapshot = { ...base, ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}), ...(ttlMs !== undefined ? { ttlMs } : {}) };
  if (base.status === 'completed') {
    if (isObject(raw.result)) snapshot.result = raw.result;
    else if (!creation) return undefined;
  }
  if (base.status === 'failed') {
    const error = errorOf(raw.error);
    if (error !== undefined) snapshot.error = error;
    else if (!creation) return undefined;
  }
  if (base.status === 'input_required') snapshot.inputRequests = inputRequestsOf(raw.inputRequests) ?? {};
  return snapshot;
}

/** A 2026-07-28 result as the tool's result: without its `resultType` discriminator. */
export function withoutResultType(result: Record<string, unknown>): Record<string, unknown> {
  if (!('resultType' in result)) return result;
  const rest = { ...result };
  delete rest.resultType;
  return rest;
}

/** Bounds on the wait between two polls: the server's `pollInterval` is honoured within these. */
export const MIN_POLL_MS = 250;
export const MAX_POLL_MS = 5000;
/** The wait between polls when the server suggests none. */
export const DEFAULT_POLL_MS = 1000;

/** How long to wait before polling a task again: its suggestion, clamped to 250 ms – 5 s. */
export function pollDelayMs(task: Pick<TaskSnapshot, 'pollIntervalMs'>): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollIntervalMs ?? DEFAULT_POLL_MS));
}
