/**
 * The receiver's tasks of one connection (src/mcp/tasks/receiver-tasks.ts), on a clock the test
 * moves: the TTL granted, expiry, and a terminal status that never changes.
 */
import { DEFAULT_RECEIVER_TTL_MS, grantedTtl, MAX_RECEIVER_TTL_MS, MIN_RECEIVER_TTL_MS, ReceiverTasks } from '../../../src/mcp/tasks/receiver-tasks';
import type { ServerInputResponse } from '../../../src/input/input-responses';

const never = new Promise<ServerInputResponse>(() => undefined);
const waiting = { waiting: 'input_required' as const, statusMessage: 'waiting' };

describe('receiver tasks', () => {
  test('the TTL is the requested one within 10 s – 1 h; 10 min when none is asked', () => {
    expect(grantedTtl(600_000)).toBe(600_000);
    expect(grantedTtl(1)).toBe(MIN_RECEIVER_TTL_MS);
    expect(grantedTtl(86_400_000)).toBe(MAX_RECEIVER_TTL_MS);
    expect(grantedTtl(undefined)).toBe(DEFAULT_RECEIVER_TTL_MS);
    expect(grantedTtl(null)).toBe(DEFAULT_RECEIVER_TTL_MS);
  });

  test('a task is dropped once its TTL has passed; a tasks/result already waiting still gets the answer', async () => {
    let now = Date.parse('2025-11-25T10:00:00Z');
    const tasks = new ReceiverTasks(() => now);
    let answer: (response: ServerInputResponse) => void = () => undefined;
    const task = tasks.start(new Promise((resolve) => (answer = resolve)), { requestedTtl: 60_000, ...waiting });
    expect(task).toMatchObject({ status: 'input_required', ttl: 60_000, createdAt: '2025-11-25T10:00:00.000Z' });
    const result = tasks.result(task.taskId);
    now += 59_999;
    expect(tasks.get(task.taskId)?.status).toBe('input_required');
    now += 1;
    expect(tasks.get(task.taskId)).toBeUndefined();
    expect(tasks.list()).toEqual([]);
    answer({ result: { action: 'accept', content: { name: 'Grace' } } });
    await expect(result).resolves.toEqual({ result: { action: 'accept', content: { name: 'Grace' } } });
  });

  test('a failure of the host fails the task with an internal error; an ended task stays as it ended', async () => {
    const tasks = new ReceiverTasks();
    const task = tasks.start(Promise.reject(new Error('the tool call was cancelled')), { requestedTtl: undefined, waiting: 'working', statusMessage: 'working' });
    await expect(tasks.result(task.taskId)).resolves.toEqual({ error: { code: -32603, message: 'the tool call was cancelled' } });
    expect(tasks.get(task.taskId)).toMatchObject({ status: 'failed', statusMessage: 'the tool call was cancelled' });
    expect(tasks.cancel(task.taskId)).toBe('terminal');
    const other = tasks.start(never, { requestedTtl: 60_000, ...waiting });
    expect(tasks.cancel(other.taskId)).toMatchObject({ status: 'cancelled' });
    expect(tasks.list().map((t) => t.status)).toEqual(['failed', 'cancelled']);
  });

  test('cancelling a running task withdraws its work, once; expiry withdraws a running task, never an ended one', async () => {
    let now = Date.parse('2025-11-25T10:00:00Z');
    const tasks = new ReceiverTasks(() => now);
    const withdrawn: string[] = [];
    const cancelled = tasks.start(never, { requestedTtl: 60_000, ...waiting, withdraw: () => withdrawn.push('cancelled') });
    expect(tasks.cancel(cancelled.taskId)).toMatchObject({ status: 'cancelled' });
    expect(tasks.cancel(cancelled.taskId)).toBe('terminal');
    expect(withdrawn).toEqual(['cancelled']);

    tasks.start(never, { requestedTtl: 60_000, ...waiting, withdraw: () => withdrawn.push('expired') });
    const ended = tasks.start(Promise.resolve({ result: { action: 'decline' } }), { requestedTtl: 60_000, ...waiting, withdraw: () => withdrawn.push('ended') });
    await tasks.result(ended.taskId);
    now += 60_000;
    expect(tasks.list()).toEqual([]);
    expect(withdrawn).toEqual(['cancelled', 'expired']);
  });
});
