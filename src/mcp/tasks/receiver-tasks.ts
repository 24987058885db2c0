/**
 * The tasks the host holds as a 2025-11-25 task receiver on one connection: a server's
 * `elicitation/create` or `sampling/createMessage` sent with `params.task` becomes one of these,
 * whose work is the host's answer to the request (src/mcp/tasks/receiver-edge.ts). Kept in memory
 * only, for at most their TTL (the server's, capped) and never beyond the connection: a task is no
 * more durable than the tool call attempt whose conversation answers it.
 *
 * Statuses follow the spec's lifecycle: the task starts `working`, may wait in `input_required`,
 * and ends `completed` (the answer is a result), `failed` (the answer is a JSON-RPC error) or
 * `cancelled` (`tasks/cancel`: the work is withdrawn, and an answer that comes later is ignored).
 * Terminal statuses never change.
 */
import { randomUUID } from 'node:crypto';
import type { ServerInputResponse } from '../../input/input-responses';
import { isTerminal, type TaskStatus } from './task-wire';

/** A task as the 2025-11-25 wire writes it (`CreateTaskResult.task`, `tasks/get`, `tasks/list`). */
export interface ReceiverTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** How long the task is kept from its creation, ms. */
  ttl: number;
  /** How often the requestor is asked to poll, ms. */
  pollInterval: number;
}

/** The poll interval the host suggests, ms. */
export const RECEIVER_POLL_INTERVAL_MS = 1000;
/** The TTL of a task whose requestor asked none, ms. */
export const DEFAULT_RECEIVER_TTL_MS = 10 * 60_000;
/** The longest and shortest TTL the host grants, ms: a task lives no longer than the call that answers it. */
export const MAX_RECEIVER_TTL_MS = 60 * 60_000;
export const MIN_RECEIVER_TTL_MS = 10_000;
/** The most tasks held on one connection: past it, a request is answered without a task. */
export const MAX_RECEIVER_TASKS = 1000;

/** JSON-RPC invalid params: the spec's code for an unknown task, a terminal task's cancellation, a bad cursor. */
export const INVALID_PARAMS = -32602;
/** JSON-RPC internal error: what a request whose answer failed in the host would have got. */
const INTERNAL_ERROR = -32603;

/** A task's record: its wire shape, when it expires, and how it ended. */
interface Held {
  task: ReceiverTask;
  expiresAt: number;
  outcome?: ServerInputResponse;
  ended: Promise<void>;
  end: () => void;
  withdraw?: () => void;
}

/** How a task's work starts: the status while it waits, and a message saying so (never the request's content). */
export interface TaskStart {
  /** The TTL the requestor asked (`params.task.ttl`); anything but a number gets the default. */
  requestedTtl: unknown;
  waiting: 'working' | 'input_required';
  statusMessage: string;
  /**
   * Tells the work that nobody wants its answer any more: called when the task is cancelled, or
   * dropped at the end of its TTL while still running (so a question leaves the user's list).
   */
  withdraw?: () => void;
}

/** The tasks of one connection. */
export class ReceiverTasks {
  private readonly held = new Map<string, Held>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether another task may be created (see {@link MAX_RECEIVER_TASKS}). */
  hasRoom(): boolean {
    this.prune();
    return this.held.size < MAX_RECEIVER_TASKS;
  }

  /**
   * Creates a task whose work is `answer`, and returns it as it stands now (a copy). An answer
   * that is a result completes it; a JSON-RPC error, or a failure of the host, fails it.
   */
  start(answer: Promise<ServerInputResponse>, how: TaskStart): ReceiverTask {
    this.prune();
    const now = this.now();
    const ttl = grantedTtl(how.requestedTtl);
    const at = new Date(now).toISOString();
    let end: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const entry: Held = {
      task: { taskId: randomUUID(), status: 'working', createdAt: at, lastUpdatedAt: at, ttl, pollInterval: RECEIVER_POLL_INTERVAL_MS },
      expiresAt: now + ttl,
      ended,
      end,
      ...(how.withdraw !== undefined ? { withdraw: how.withdraw } : {}),
    };
    this.held.set(entry.task.taskId, entry);
    if (how.waiting !== 'working') this.move(entry, how.waiting, how.statusMessage);
    else entry.task.statusMessage = how.statusMessage;
    answer.then(
      (response) => this.finish(entry, response),
      (err: unknown) => this.finish(entry, { error: { code: INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) } }),
    );
    return { ...entry.task };
  }

  /** The task as it stands, or undefined when the host holds no such task (never created, or expired). */
  get(taskId: string): ReceiverTask | undefined {
    this.prune();
    const entry = this.held.get(taskId);
    return entry !== undefined ? { ...entry.task } : undefined;
  }

  /** Every task held, oldest first. */
  list(): ReceiverTask[] {
    this.prune();
    return [...this.held.values()].map((entry) => ({ ...entry.task }));
  }

  /**
   * Cancels a task still running: its answer, when it comes, is ignored. Undefined for an unknown
   * task; `terminal` for one that has ended already (the spec has that refused).
   */
  cancel(taskId: string): ReceiverTask | 'terminal' | undefined {
    this.prune();
    const entry = this.held.get(taskId);
    if (entry === undefined) return undefined;
    if (isTerminal(entry.task.status)) return 'terminal';
    entry.outcome = { error: { code: INVALID_PARAMS, message: `Task ${taskId} was cancelled: it has no result` } };
    this.move(entry, 'cancelled', 'The task was cancelled by request.');
    entry.end();
    entry.withdraw?.();
    return { ...entry.task };
  }

  /**
   * What the task's request is answered with, once it has ended (`tasks/result` blocks until then):
   * a result, or the JSON-RPC error the request would have got. Undefined for an unknown task.
   */
  result(taskId: string): Promise<ServerInputResponse> | undefined {
    this.prune();
    const entry = this.held.get(taskId);
    if (entry === undefined) return undefined;
    return entry.ended.then(() => entry.outcome ?? { error: { code: INTERNAL_ERROR, message: `Task ${taskId} ended without a result` } });
  }

  private finish(entry: Held, response: ServerInputResponse): void {
    if (isTerminal(entry.task.status)) return;
    entry.outcome = response;
    if ('error' in response) this.move(entry, 'failed', response.error.message);
    else this.move(entry, 'completed', undefined);
    entry.end();
  }

  private move(entry: Held, status: TaskStatus, statusMessage: string | undefined): void {
    entry.task.status = status;
    if (statusMessage !== undefined) entry.task.statusMessage = statusMessage;
    else delete entry.task.statusMessage;
    entry.task.lastUpdatedAt = new Date(this.now()).toISOString();
  }

  /**
   * Drops the tasks past their TTL (a `tasks/result` already waiting on one still gets its answer),
   * withdrawing the work of those still running.
   */
  private prune(): void {
    const now = this.now();
    for (const [taskId, entry] of this.held) {
      if (now < entry.expiresAt) continue;
      this.held.delete(taskId);
      if (!isTerminal(entry.task.status)) entry.withdraw?.();
    }
  }
}

/** The TTL granted for a requested one: the request's, within the host's bounds. */
export function grantedTtl(requested: unknown): number {
  if (typeof requested !== 'number' || !Number.isFinite(requested)) return DEFAULT_RECEIVER_TTL_MS;
  return Math.min(MAX_RECEIVER_TTL_MS, Math.max(MIN_RECEIVER_TTL_MS, Math.round(requested)));
}
