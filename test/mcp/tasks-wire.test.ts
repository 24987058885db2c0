/**
 * The MCP task shapes of both wires as src/mcp/tasks/task-wire.ts and task-support.ts read them:
 * what is a task and what is not, what a creation answer may leave out, the poll interval's bounds,
 * and a tool's `execution.taskSupport`.
 */
import { taskSupportOf } from '../../src/mcp/tasks';
import { pollDelayMs, readCreated2025, readTask2025, readTask2026, withoutResultType } from '../../src/mcp/tasks/task-wire';

const base = { taskId: 't-1', createdAt: '2026-07-28T10:00:00Z', lastUpdatedAt: '2026-07-28T10:00:01Z' };

describe('task wire', () => {
  test('the poll interval is the server’s, within 250 ms – 5 s; 1 s when it suggests none', () => {
    expect(pollDelayMs({ pollIntervalMs: 10 })).toBe(250);
    expect(pollDelayMs({ pollIntervalMs: 1500 })).toBe(1500);
    expect(pollDelayMs({ pollIntervalMs: 3_600_000 })).toBe(5000);
    expect(pollDelayMs({})).toBe(1000);
  });

  test('2025-11-25: a CreateTaskResult is a task, a plain result is the result, a broken task field is neither', () => {
    expect(readCreated2025({ task: { ...base, status: 'working', ttl: 60_000, pollInterval: 500 } })).toEqual({
      task: { taskId: 't-1', status: 'working', createdAt: base.createdAt, ttlMs: 60_000, pollIntervalMs: 500 },
    });
    const plain = { content: [{ type: 'text', text: 'ran without a task' }] };
    expect(readCreated2025(plain)).toEqual({ result: plain });
    expect(readCreated2025({ task: { status: 'working' } })).toHaveProperty('invalid');
    expect(readCreated2025({ task: { taskId: 't', status: 'sleeping' } })).toHaveProperty('invalid');
    expect(readTask2025({ ...base, status: 'input_required', ttl: null, statusMessage: 'waiting' })).toEqual({
      taskId: 't-1',
      status: 'input_required',
      statusMessage: 'waiting',
      createdAt: base.createdAt,
      ttlMs: null,
    });
  });

  test('2026-07-28: tasks/get must carry the result of a completed task and the error of a failed one; a creation answer need not', () => {
    const result = { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] };
    expect(readTask2026({ ...base, status: 'completed', ttlMs: 1000, pollIntervalMs: 200, result })).toMatchObject({ status: 'completed', result, ttlMs: 1000, pollIntervalMs: 200 });
    expect(readTask2026({ ...base, status: 'completed' })).toBeUndefined();
    expect(readTask2026({ ...base, status: 'completed' }, true)).toMatchObject({ status: 'completed' });
    expect(readTask2026({ ...base, status: 'failed', error: { code: -32603, message: 'down' } })).toMatchObject({ error: { code: -32603, message: 'down' } });
    expect(readTask2026({ ...base, status: 'failed', error: { message: 'no code' } })).toBeUndefined();
    expect(readTask2026({ ...base, status: 'failed' }, true)).toMatchObject({ status: 'failed' });
    expect(
      readTask2026({ ...base, status: 'input_required', inputRequests: { k: { method: 'elicitation/create', params: { message: 'ok?' } }, junk: 3 } }),
    ).toMatchObject({ inputRequests: { k: { method: 'elicitation/create', params: { message: 'ok?' } } } });
    expect(readTask2026({ status: 'working' })).toBeUndefined();
    expect(withoutResultType(result)).toEqual({ content: result.content });
  });

  test('a listed tool’s execution.taskSupport, as sent', () => {
    expect(taskSupportOf({ name: 'a', execution: { taskSupport: 'required' } })).toBe('required');
    expect(taskSupportOf({ name: 'a', execution: { taskSupport: 'optional' } })).toBe('optional');
    expect(taskSupportOf({ name: 'a', execution: { taskSupport: 'forbidden' } })).toBe('forbidden');
    expect(taskSupportOf({ name: 'a', execution: { taskSupport: 'sometimes' } })).toBeUndefined();
    expect(taskSupportOf({ name: 'a' })).toBeUndefined();
  });
});
