import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { withClaudeFailureDelay, withClaudeFailureDelays } from '../../src/activities/with-claude-failure-delays';

const env = (attempt: number): MockActivityEnvironment => new MockActivityEnvironment({ attempt }, { logger: new DefaultLogger('ERROR') });

async function thrownBy(attempt: number, err: Error): Promise<unknown> {
  const activity = withClaudeFailureDelays((): Promise<never> => Promise.reject(err));
  return env(attempt).run(activity, undefined).then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
}

describe("a Claude call's failure delays", () => {
  test('a retryable failure without a delay gets the backoff of its attempt, keeping what it says', async () => {
    const original = ApplicationFailure.create({ type: 'claude.api_error', message: 'Claude API 500: boom', details: [{ status: 500 }] });
    const failure = (await thrownBy(3, original)) as ApplicationFailure;
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure.nextRetryDelay).toBe(4000);
    expect(failure).toMatchObject({ type: 'claude.api_error', message: 'Claude API 500: boom', nonRetryable: false, details: [{ status: 500 }] });
    expect(failure.stack).toBe(original.stack);
  });

  test("the API's retry-after wins", async () => {
    const failure = (await thrownBy(5, ApplicationFailure.create({ type: 'claude.rate_limit_error', message: '429', nextRetryDelay: 2000 }))) as ApplicationFailure;
    expect(failure.nextRetryDelay).toBe(2000);
  });

  test('a non-retryable failure and other errors are left as they are', async () => {
    const final = ApplicationFailure.create({ type: 'claude.invalid_request_error', message: '400', nonRetryable: true });
    expect(await thrownBy(1, final)).toBe(final);
    const plain = new Error('not classified');
    expect(await thrownBy(1, plain)).toBe(plain);
    expect(withClaudeFailureDelay(final, 2)).toBe(final);
  });
});
