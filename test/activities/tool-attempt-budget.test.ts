/**
 * The tool attempt budget inside an activity (Temporal's mock activity context): the count read from
 * the previous attempt's heartbeat details, carried by every heartbeat, recorded before a counted
 * failure is thrown, and the failure each case throws.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { ToolAttemptBudget } from '../../src/activities/tool-attempt-budget';

/** Runs `body` as one activity attempt that got `details` from the previous one; returns its result and heartbeats. */
async function attempt<T>(details: unknown, body: (budget: ToolAttemptBudget) => T, idempotent = false): Promise<{ result: T; heartbeats: unknown[] }> {
  const env = new MockActivityEnvironment({ heartbeatDetails: details }, { logger: new DefaultLogger('ERROR') });
  const heartbeats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => heartbeats.push(d));
  const result = (await env.run(() => Promise.resolve(body(new ToolAttemptBudget(Context.current(), idempotent))))) as T;
  return { result, heartbeats };
}

const timeout = (): ApplicationFailure => ApplicationFailure.retryable('tools/call "hang" timed out after 1500 ms', 'mcp.timeout');
const serverError = (): ApplicationFailure => ApplicationFailure.retryable('server error (JSON-RPC -32603): the database went away', 'mcp.server_error');

describe('ToolAttemptBudget', () => {
  test('heartbeats carry the count from the previous attempt, with the progress beside it', async () => {
    const { heartbeats } = await attempt({ toolFailures: 2, progress: { progress: 1 } }, (budget) => {
      budget.heartbeat();
      budget.heartbeat({ progress: 3, total: 5 });
    });
    expect(heartbeats).toEqual([{ toolFailures: 2 }, { toolFailures: 2, progress: { progress: 3, total: 5 } }]);
  });

  test.each([undefined, null, 'text', { toolFailures: -1 }, { toolFailures: 1.5 }, { progress: 4 }])(
    'details of another shape (%p) count as no failures yet',
    async (details) => {
      const { heartbeats } = await attempt(details, (budget) => budget.heartbeat());
      expect(heartbeats).toEqual([{ toolFailures: 0 }]);
    },
  );

  test('a failure of the tool with budget left: the new count is heartbeated, then a retryable failure with the backoff', async () => {
    const { result, heartbeats } = await attempt({ toolFailures: 1 }, (budget) => budget.charge(serverError()));
    expect(heartbeats).toEqual([{ toolFailures: 2 }]);
    expect(result).toMatchObject({ type: 'mcp.server_error', nonRetryable: false, nextRetryDelay: 2000, message: 'server error (JSON-RPC -32603): the database went away' });
  });

  test('the failure that spends the budget is non-retryable and says how often the tool was tried', async () => {
    const spent = await attempt({ toolFailures: 2 }, (budget) => budget.charge(serverError()));
    expect(spent.result).toMatchObject({ type: 'mcp.server_error', nonRetryable: true, message: 'server error (JSON-RPC -32603): the database went away; tried 3 times' });
    expect(spent.heartbeats).toEqual([]);
    // An idempotent tool has more to spend.
    const idempotent = await attempt({ toolFailures: 2 }, (budget) => budget.charge(timeout()), true);
    expect(idempotent.result).toMatchObject({ nonRetryable: false, nextRetryDelay: 4000 });
  });

  test('a tool not marked idempotent that may have run is not run again: non-retryable at once, saying why', async () => {
    const { result, heartbeats } = await attempt({ toolFailures: 0 }, (budget) => budget.charge(timeout()));
    expect(heartbeats).toEqual([]);
    expect(result).toMatchObject({
      type: 'mcp.timeout',
      nonRetryable: true,
      message:
        'tools/call "hang" timed out after 1500 ms; not run again: it may have run, and its server does not mark it idempotent or read-only',
    });
  });

  test('final failures and the worker’s own pass through unchanged and record nothing', async () => {
    const rejected = ApplicationFailure.nonRetryable('rejected the arguments', 'mcp.invalid_params');
    const draining = ApplicationFailure.retryable('the worker is shutting down', 'mcp.shutting_down');
    const { result, heartbeats } = await attempt({ toolFailures: 1 }, (budget) => [budget.charge(rejected), budget.charge(draining)]);
    expect(result[0]).toBe(rejected);
    expect(result[1]).toBe(draining);
    expect(heartbeats).toEqual([]);
  });

  describe('in a local activity (a fast tool)', () => {
    /** One attempt of a local activity: no heartbeat details, the attempt number from Temporal. */
    async function localAttempt<T>(attemptNumber: number, body: (budget: ToolAttemptBudget) => T, idempotent = false): Promise<{ result: T; heartbeats: unknown[] }> {
      const env = new MockActivityEnvironment({ isLocal: true, attempt: attemptNumber }, { logger: new DefaultLogger('ERROR') });
      const heartbeats: unknown[] = [];
      env.on('heartbeat', (d: unknown) => heartbeats.push(d));
      const result = (await env.run(() => Promise.resolve(body(new ToolAttemptBudget(Context.current(), idempotent))))) as T;
      return { result, heartbeats };
    }

    test('the attempt number counts the failures; nothing is heartbeated (a local activity has no heartbeats)', async () => {
      const first = await localAttempt(1, (budget) => {
        budget.heartbeat({ progress: 1 });
        return budget.charge(serverError());
      });
      expect(first.heartbeats).toEqual([]);
      expect(first.result).toMatchObject({ type: 'mcp.server_error', nonRetryable: false, nextRetryDelay: 1000 });
      expect((await localAttempt(2, (budget) => budget.charge(serverError()))).result).toMatchObject({ nonRetryable: false, nextRetryDelay: 2000 });
      const spent = await localAttempt(3, (budget) => budget.charge(serverError()));
      expect(spent.result).toMatchObject({ nonRetryable: true, message: 'server error (JSON-RPC -32603): the database went away; tried 3 times' });
      expect(spent.heartbeats).toEqual([]);
      expect((await localAttempt(3, (budget) => budget.charge(serverError()), true)).result).toMatchObject({ nonRetryable: false, nextRetryDelay: 4000 });
      expect((await localAttempt(6, (budget) => budget.charge(serverError()), true)).result).toMatchObject({ nonRetryable: true, message: expect.stringMatching(/tried 6 times$/) });
    });

    test('a tool not marked idempotent that may have run is not run again, as in a regular call', async () => {
      expect((await localAttempt(1, (budget) => budget.charge(timeout()))).result).toMatchObject({ type: 'mcp.timeout', nonRetryable: true });
    });
  });
});
