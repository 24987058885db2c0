import { ServiceError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { errorLine } from '../../src/client/cli';

describe('the CLI error line', () => {
  test("the Temporal client's errors name their reason", () => {
    const grpc = Object.assign(new Error('1 CANCELLED: context canceled'), { code: 1, details: 'context canceled' });
    expect(errorLine(new ServiceError('Workflow Update failed', { cause: grpc }))).toBe('Workflow Update failed: 1 CANCELLED: context canceled');
    const refused = new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.nonRetryable('the conversation has ended', 'ended'));
    expect(errorLine(refused)).toBe('Workflow Update failed: the conversation has ended');
  });

  test('other errors as they are, one line', () => {
    expect(errorLine(new Error('no conversation with id "x"'))).toBe('no conversation with id "x"');
    expect(errorLine(new ServiceError('Workflow Update failed'))).toBe('Workflow Update failed');
    expect(errorLine('plain')).toBe('plain');
  });
});
