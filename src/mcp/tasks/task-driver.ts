/**
 * One tool call run as an MCP task, on either wire (`task-support.ts`): create the task, or
 * resume one an earlier attempt created, and poll it until its result is in.
 *
 * - `start(args)` sends `tools/call` as a task (2025-11-25: with `params.task = {ttl}`; 2026-07-28:
 *   declaring the extension, `extension-edge.ts`). A server free to answer without a task (an
 *   `optional` tool, or any 2026 call) may: that result (or a 2026 `input_required` one) is
 *   returned as it is.
 * - `resume(taskId)` polls a task an earlier attempt created, without calling the tool again.
 * - The task id reaches `onTaskId` as soon as it is known, before any wait, so the caller can
 *   record it at once (the activity heartbeats it); each new status (or status message) reaches
 *   `onStatus`.
 * - It polls `tasks/get` at the server's `pollInterval`, clamped to 250 ms – 5 s. 2025-11-25: once
 *   the task has ended (`completed`, `failed`) or waits for input (`input_required`), the result is
 *   `tasks/result`, which blocks until the task ends; meanwhile the server may send requests
 *   related to the task (`elicitation/create`…) on the connection, which the client's own request
 *   handlers answer. 2026-07-28: the result comes inline with the `completed` task; an
 *   `input_required` task's `inputRequests` are answered through `ask` (each key once), sent back
 *   with `tasks/update`, and polling goes on.
 * - `cancel()` sends `tasks/cancel` for the task (best effort; the caller decides when: a task the
 *   host abandons for good, never one a later attempt will resume).
 *
 * Failures are decided in `task-errors.ts`; after one that leaves nothing to resume (the task
 * failed, was cancelled or is lost) {@link TaskDriver.spent} is true, and the caller forgets the
 * task id so that a retry calls the tool afresh. `signal` aborting (the activity cancelled, or its
 * deadline) stops every wait and request: the driver then rethrows what it met and leaves the
 * decision to the caller.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { classifyError } from '../../errors/classify-error';
import { isTransportFailure } from '../is-transport-failure';
import { markForTasks, installTasksEdge, taskHandleOf } from './extension-edge';
import { notATask, taskCancelled, taskLost, taskPollFailed, type TaskCallName } from './task-errors';
import type { TaskWire } from './task-support';
import { isTerminal, pollDelayMs, readCreated2025, readTask2025, readTask2026, withoutResultType, type TaskInputRequest, type TaskSnapshot } from './task-wire';

/** Results are taken as sent (see src/activities/call-tool.ts): checked by the readers here. */
const AnyResult = z.unknown();
/** JSON-RPC -32602, which a server answers for a task id it does not know (both wires). */
const INVALID_PARAMS = -32602;
/** JSON-RPC -32601: a server (restarted as another version, say) that no longer has the task methods. */
const METHOD_NOT_FOUND = -32601;
/** The TTL asked for a 2025-11-25 task when none is given: long enough to outlive many lost workers. */
export const DEFAULT_TASK_TTL_MS = 60 * 60_000;
/** Past its TTL (from its `createdAt`, the server's clock) plus this, a task still running counts as lost. */
const TTL_GRACE_MS = 60_000;
/** How long `tasks/cancel` may take: it is sent on the way out. */
const CANCEL_TIMEOUT_MS = 5000;

/** What the driver tells its caller. */
export interface TaskCallbacks {
  /** The task's id, as soon as it is known (before any wait). */
  onTaskId: (taskId: string) => void;
  /** Each new status or status message of the task. */
  onStatus: (task: TaskSnapshot) => void;
  /**
   * The answer to one of a 2026-07-28 task's input requests (`key` as the server names it): the MCP
   * result of the request (an `ElicitResult`, a `CreateMessageResult`…). Without it, a task that
   * asks for input is cancelled.
   */
  ask?: (key: string, request: TaskInputRequest) => Promise<unknown>;
}

/** How to run one call. */
export interface TaskDriverOptions extends TaskCallName {
  client: Client;
  wire: TaskWire;
  /** Aborts every wait and request (the activity's cancellation and deadline). */
  signal: AbortSignal;
  /** The timeout of each request (the server's `timeoutMs`). */
  requestTimeoutMs: number;
  /** The timeout of a 2025-11-25 `tasks/result`, which blocks until the task ends (default: `requestTimeoutMs`). */
  resultTimeoutMs?: number;
  /** The TTL asked for a 2025-11-25 task (default {@link DEFAULT_TASK_TTL_MS}). */
  ttlMs?: number;
  /** Headers of the `tools/call` (`Mcp-Param-*`). */
  headers?: Record<string, string>;
  /** Progress notifications of the `tools/call` (and of a 2025 `tasks/result`). */
  onprogress?: (progress: unknown) => void;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A 2026-07-28 task seen ended (completed or failed) without its result or error: a creation answer. */
function unread2026(task: TaskSnapshot): boolean {
  return (task.status === 'completed' && task.result === undefined) || (task.status === 'failed' && task.error === undefined);
}

/** One call run as a task (see the module comment). One instance per attempt. */
export class TaskDriver {
  /** The task, once known. */
  taskId: string | undefined;
  /** The task has nothing left to resume: it failed, was cancelled, or is lost. */
  spent = false;
  /** A request about the task failed at the transport level: the caller drops the connection. */
  transportBroken = false;
  private reported: { status: string; message: string | undefined } | undefined;
  private readonly answered = new Set<string>();

  constructor(
    private readonly options: TaskDriverOptions,
    private readonly callbacks: TaskCallbacks,
  ) {}

  /**
   * Calls the tool as a task and returns its result (the `CallToolResult` as sent). `extra` adds to
   * the call's params: on 2026-07-28, a round after `input_required` (`inputResponses`,
   * `requestState`). Such an `input_required` answer (the server asking before it makes a task) is
   * returned as it is, for the caller to answer.
   */
  async start(args: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<unknown> {
    const { client, wire } = this.options;
    const call = { ...extra, name: this.options.tool, arguments: args };
    let params: Record<string, unknown>;
    if (wire === 'tasks-2025') {
      params = { ...call, task: { ttl: this.options.ttlMs ?? DEFAULT_TASK_TTL_MS } };
    } else {
      installTasksEdge(client);
      params = markForTasks(call);
    }
    const answer = await client.request({ method: 'tools/call', params }, AnyResult, {
      signal: this.options.signal,
      ...(wire === 'tasks-extension' ? { allowInputRequired: true } : {}),
      timeout: this.options.requestTimeoutMs,
      resetTimeoutOnProgress: true,
      ...(this.options.onprogress !== undefined ? { onprogress: this.options.onprogress } : {}),
      ...(this.options.headers !== undefined && Object.keys(this.options.headers).length > 0 ? { headers: this.options.headers } : {}),
    });
    let task: TaskSnapshot | undefined;
    if (wire === 'tasks-2025') {
      const created = readCreated2025(answer);
      if ('invalid' in created) throw notATask(this.options, created.invalid);
      if ('result' in created) return created.result;
      task = created.task;
    } else {
      const handle = taskHandleOf(answer);
      if (handle === undefined) return answer;
      task = readTask2026(handle, true);
      if (task === undefined) throw notATask(this.options, 'a task answer (resultType "task") without a taskId or a known status');
    }
    this.known(task.taskId);
    this.report(task);
    return await this.follow(task);
  }

  /** Polls the task `taskId` an earlier attempt created, to its result. */
  async resume(taskId: string): Promise<unknown> {
    this.known(taskId);
    const task = await this.get();
    this.report(task);
    return await this.follow(task);
  }

  /** Sends `tasks/cancel` for the task, if there is one; never throws. Whether the server took it. */
  async cancel(): Promise<boolean> {
    if (this.taskId === undefined) return false;
    try {
      await this.options.client.request({ method: 'tasks/cancel', params: { taskId: this.taskId } }, AnyResult, {
        timeout: Math.min(this.options.requestTimeoutMs, CANCEL_TIMEOUT_MS),
      });
      return true;
    } catch {
      return false;
    }
  }

  private known(taskId: string): void {
    this.taskId = taskId;
    this.callbacks.onTaskId(taskId);
  }

  private report(task: TaskSnapshot): void {
    if (this.reported?.status === task.status && this.reported.message === task.statusMessage) return;
    this.reported = { status: task.status, message: task.statusMessage };
    this.callbacks.onStatus(task);
  }

  /** Polls until the result is in (see the module comment). */
  private async follow(first: TaskSnapshot): Promise<unknown> {
    let task = first;
    for (;;) {
      if (this.options.wire === 'tasks-2025') {
        if (isTerminal(task.status) || task.status === 'input_required') return await this.result2025(task);
      } else if (!unread2026(task)) {
        const ended = this.ended2026(task);
        if (ended !== undefined) return ended.result;
        if (task.status === 'input_required') await this.answer(task);
      }
      this.checkTtl(task);
      // A creation answer that has ended already carries no result: it is asked for at once.
      if (!unread2026(task)) await sleep(pollDelayMs(task), undefined, { signal: this.options.signal });
      task = await this.get();
      this.report(task);
    }
  }

  /** A 2026-07-28 task that has ended: its result, or the failure it ended with; undefined while it runs. */
  private ended2026(task: TaskSnapshot): { result: unknown } | undefined {
    switch (task.status) {
      case 'completed':
        return { result: withoutResultType(task.result ?? {}) };
      case 'failed': {
        this.spent = true;
        // The call's own JSON-RPC error: classified as if tools/call had answered it.
        const error = task.error ?? { code: -32603, message: task.statusMessage ?? 'the task failed' };
        throw new ProtocolError(error.code, error.message, error.data);
      }
      case 'cancelled':
        this.spent = true;
        throw taskCancelled(this.options, task.taskId, task.statusMessage ?? 'by the server');
      default:
        return undefined;
    }
  }

  /** The result of a 2025-11-25 task that ended or waits for input: `tasks/result`. */
  private async result2025(task: TaskSnapshot): Promise<unknown> {
    if (task.status === 'cancelled') {
      // A cancelled request has no result to fetch (nor would the host use one).
      this.spent = true;
      throw taskCancelled(this.options, task.taskId, task.statusMessage ?? 'by the server');
    }
    try {
      const result = await this.options.client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, AnyResult, {
        signal: this.options.signal,
        timeout: this.options.resultTimeoutMs ?? this.options.requestTimeoutMs,
        resetTimeoutOnProgress: true,
        ...(this.options.onprogress !== undefined ? { onprogress: this.options.onprogress } : {}),
      });
      if (task.status === 'failed') this.spent = true;
      return result;
    } catch (err) {
      if (this.options.signal.aborted || !(err instanceof ProtocolError)) throw this.pollFailure(err);
      // tasks/result answers what the call would have: a JSON-RPC error is the call's own when the task
      // failed, and otherwise the task's retrieval failing (-32602: gone). tasks/get tells which.
      const now = await this.get();
      this.report(now);
      if (now.status === 'failed') {
        this.spent = true;
        throw err;
      }
      throw this.pollFailure(err);
    }
  }

  /** Answers a 2026-07-28 task's input requests not answered yet, in one `tasks/update`. */
  private async answer(task: TaskSnapshot): Promise<void> {
    const requests = Object.entries(task.inputRequests ?? {}).filter(([key]) => !this.answered.has(key));
    if (requests.length === 0) return;
    const ask = this.callbacks.ask;
    if (ask === undefined) {
      await this.cancel();
      this.spent = true;
      const methods = [...new Set(requests.map(([, request]) => request.method))].join(', ');
      throw taskCancelled(this.options, task.taskId, `it asked for input (${methods}), which this call cannot answer; the host cancelled it`);
    }
    const inputResponses: Record<string, unknown> = {};
    for (const [key, request] of requests) inputResponses[key] = await ask(key, request);
    try {
      await this.options.client.request({ method: 'tasks/update', params: { taskId: task.taskId, inputResponses } }, AnyResult, {
        signal: this.options.signal,
        timeout: this.options.requestTimeoutMs,
      });
    } catch (err) {
      throw this.pollFailure(err);
    }
    for (const key of Object.keys(inputResponses)) this.answered.add(key);
  }

  /** `tasks/get`: the task now. */
  private async get(): Promise<TaskSnapshot> {
    const taskId = this.taskId!;
    let answer: unknown;
    try {
      answer = await this.options.client.request({ method: 'tasks/get', params: { taskId } }, AnyResult, {
        signal: this.options.signal,
        timeout: this.options.requestTimeoutMs,
      });
    } catch (err) {
      throw this.pollFailure(err);
    }
    const task = this.options.wire === 'tasks-2025' ? readTask2025(answer) : readTask2026(answer);
    if (task === undefined || task.taskId !== taskId) {
      const what = isObject(answer) ? `keys ${Object.keys(answer).join(', ') || '(none)'}` : typeof answer;
      throw notATask(this.options, `tasks/get for the task ${taskId} answered something that is not that task (${what})`);
    }
    return task;
  }

  /** A task still running past its TTL (from its creation, with a margin for clocks) is lost. */
  private checkTtl(task: TaskSnapshot): void {
    if (isTerminal(task.status) || typeof task.ttlMs !== 'number' || task.createdAt === undefined) return;
    const created = Date.parse(task.createdAt);
    if (Number.isNaN(created) || Date.now() <= created + task.ttlMs + TTL_GRACE_MS) return;
    this.spent = true;
    throw taskLost(this.options, task.taskId, `still ${task.status} past its TTL of ${task.ttlMs} ms`);
  }

  /**
   * What a failed request about the task becomes: the error itself when the call is being stopped
   * (the caller decides) or when no attempt can do better (non-retryable); the task lost when the
   * server does not know it (-32602) or no longer has the method (-32601); otherwise a poll
   * failure, after which the next attempt polls the same task.
   */
  private pollFailure(err: unknown): unknown {
    if (this.options.signal.aborted) return err;
    const taskId = this.taskId!;
    if (err instanceof ProtocolError && (err.code === INVALID_PARAMS || err.code === METHOD_NOT_FOUND)) {
      this.spent = true;
      return taskLost(this.options, taskId, `the server answered: ${err.message}`);
    }
    if (isTransportFailure(err)) this.transportBroken = true;
    const failure = classifyError(err);
    return failure.nonRetryable ? err : taskPollFailed(this.options, taskId, failure.message);
  }
}
