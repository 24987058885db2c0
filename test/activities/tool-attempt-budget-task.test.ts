/**
 * The tool attempt budget and MCP tasks (issue 27): the task id read from the previous attempt's
 * heartbeat details and carried in every heartbeat of this one (the failure's record included)
 * until it is forgotten; the task failures as the tool retry policy takes them.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { ToolAttemptBudget } from '../../src/activities/tool-attempt-budget';

async function attempt<T>(details: unknown, body: (budget: ToolAttemptBudget) => T, idempotent = false): Promise<{ result: T; heartbeats: unknown[] }> {
  const env = new MockActivityEnvironment({ heartbeatDetails: details }, { logger: new DefaultLogger('ERROR') });
  const heartbeats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => heartbeats.push(d));
  const result = (await env.run(() => Promise.resolve(body(new ToolAttemptBudget(Context.current(), idempotent))))) as T;
  return { result, heartbeats };
}

describe('ToolAttemptBudget and MCP tasks', () => {
  test('the previous attempt’s task id is read and carried in every heartbeat from the start, beside the count and progress', async () => {
    const { result, heartbeats } = await attempt({ toolFailures: 1, taskId: 'task-7', taskStatus: { status: 'working' } }, (budget) => {
      budget.heartbeat();
      budget.noteTask('task-7', { status: 'working', message: 'step 2/3' });
      budget.heartbeat({ progress: 2 });
      return budget.previousTaskId;
    });
    expect(result).toBe('task-7');
    expect(heartbeats).toEqual([
      { toolFailures: 1, taskId: 'task-7' },
      { toolFailures: 1, progress: { progress: 2 }, taskId: 'task-7', taskStatus: { status: 'working', message: 'step 2/3' } },
    ]);
  });

  test.each([undefined, { toolFailures: 0 }, { toolFailures: 0, taskId: '' }, { toolFailures: 0, taskId: 42 }])('no task id in %p', async (details) => {
    const { result, heartbeats } = await attempt(details, (budget) => {
      budget.heartbeat();
      return budget.currentTaskId;
    });
    expect(result).toBeUndefined();
    expect(heartbeats).toEqual([{ toolFailures: 0 }]);
  });

  test('a counted failure’s record keeps the task (the next attempt polls it); a forgotten task is not recorded', async () => {
    const pollFailed = ApplicationFailure.retryable('polling the task failed', 'mcp.task_poll_failed');
    const kept = await attempt({ toolFailures: 0, taskId: 'task-8' }, (budget) => budget.charge(pollFailed));
    expect(kept.heartbeats).toEqual([{ toolFailures: 1, taskId: 'task-8' }]);
    expect(kept.result).toMatchObject({ type: 'mcp.task_poll_failed', nonRetryable: false });

    const forgotten = await attempt(
      { toolFailures: 0, taskId: 'task-9' },
      (budget) => {
        budget.noteTask(undefined);
        return budget.charge(ApplicationFailure.retryable('the task is lost', 'mcp.task_lost'));
      },
      true,
    );
    expect(forgotten.heartbeats).toEqual([{ toolFailures: 1 }]);
  });

  test('task failures under the policy: lost is "may have run", still running costs nothing, cancelled is final', async () => {
    const lost = await attempt({ toolFailures: 0 }, (budget) => budget.charge(ApplicationFailure.retryable('the task is lost', 'mcp.task_lost')));
    expect(lost.result).toMatchObject({ nonRetryable: true, message: expect.stringContaining('not run again: it may have run') as unknown });
    const running = ApplicationFailure.retryable('still running', 'mcp.task_running');
    const passed = await attempt({ toolFailures: 2, taskId: 'task-10' }, (budget) => budget.charge(running));
    expect(passed.result).toBe(running);
    expect(passed.heartbeats).toEqual([]);
    const cancelled = ApplicationFailure.nonRetryable('the server cancelled it', 'mcp.task_cancelled');
    expect((await attempt({ toolFailures: 0 }, (budget) => budget.charge(cancelled))).result).toBe(cancelled);
  });
});
