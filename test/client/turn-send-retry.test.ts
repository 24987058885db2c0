import { ServiceError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { isTransientTurnSendFailure, sendTurnWithRetry } from '../../src/client/turn-send-retry';

/** A gRPC error as @grpc/grpc-js makes it (code, details, metadata). */
function grpcError(code: number, details: string): Error {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
}

describe('isTransientTurnSendFailure', () => {
  it.each([
    ['the update RPC timed out', new WorkflowUpdateRPCTimeoutOrCancelledError('context deadline exceeded', { cause: grpcError(4, 'context deadline exceeded') })],
    ['the server dropped the update with the lost workflow task', new WorkflowNotFoundError('update "b1f0" not found', 'c-1', undefined)],
    ['the workflow task is in failed state', new ServiceError('Workflow Update failed', { cause: grpcError(9, 'Unable to perform workflow execution update due to Workflow Task in failed state.') })],
    ['the server is unavailable', new ServiceError('Workflow Update failed', { cause: grpcError(14, 'connection refused') })],
    // As the SDK rethrows an update-with-start refused inside a MultiOperationExecutionFailure (seen in chaos):
    // the refusal in the message, other words in the details.
    [
      'an update-with-start meets a workflow task in failed state',
      Object.assign(grpcError(9, 'MultiOperation could not be executed.'), { message: 'Unable to perform workflow execution update due to Workflow Task in failed state.' }),
    ],
    ['the server rejected it, unanswered by a workflow task', new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.create({ message: "Workflow Update is rejected because it wasn't processed by worker. Probably, Workflow Update is not supported by the worker.", type: 'UnprocessedUpdate', nonRetryable: true }))],
    ['the run closed first (continue-as-new)', new WorkflowUpdateFailedError('Workflow Update failed', new Error('Workflow Update failed because the Workflow completed before the Update completed.'))],
  ])('sends again when %s', (_why, err) => {
    expect(isTransientTurnSendFailure(err)).toBe(true);
  });

  it.each([
    ['the conversation has ended (validator)', new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.create({ message: 'the conversation has ended' }))],
    ['an empty message (validator)', new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.create({ message: 'the message is empty' }))],
    ['the workflow itself is gone', new WorkflowNotFoundError('workflow execution already completed', 'c-1', undefined)],
    ['a refused argument', new ServiceError('Workflow Update failed', { cause: grpcError(3, 'invalid update id') })],
    ['a plain error', new Error('boom')],
  ])('stops at once when %s', (_why, err) => {
    expect(isTransientTurnSendFailure(err)).toBe(false);
  });
});

describe('sendTurnWithRetry', () => {
  const fast = { giveUpAfterMs: 10_000, initialDelayMs: 1, maxDelayMs: 4 };
  const noSleep = (): Promise<void> => Promise.resolve();

  it('sends again after transient failures and returns the answer', async () => {
    const attempts: number[] = [];
    const answer = await sendTurnWithRetry((attempt) => {
      attempts.push(attempt);
      if (attempt < 3) return Promise.reject(new WorkflowNotFoundError('update "u" not found', 'c-1', undefined));
      return Promise.resolve('the answer');
    }, fast, noSleep);
    expect(answer).toBe('the answer');
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('throws a final failure on the first attempt', async () => {
    const refusal = new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.create({ message: 'the conversation has ended' }));
    let attempts = 0;
    await expect(sendTurnWithRetry(() => {
      attempts += 1;
      return Promise.reject(refusal);
    }, fast, noSleep)).rejects.toBe(refusal);
    expect(attempts).toBe(1);
  });

  it('gives up with the last failure once its time is up', async () => {
    let attempts = 0;
    const started = Date.now();
    await expect(sendTurnWithRetry(() => {
      attempts += 1;
      return Promise.reject(new WorkflowUpdateRPCTimeoutOrCancelledError('context deadline exceeded'));
    }, { giveUpAfterMs: 200, initialDelayMs: 20, maxDelayMs: 40 })).rejects.toBeInstanceOf(WorkflowUpdateRPCTimeoutOrCancelledError);
    expect(attempts).toBeGreaterThan(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
