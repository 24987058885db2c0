/**
 * A thrown failure with its text redacted as Temporal would record it (message, stack, details,
 * cause), and its decision (type, retryability, delay) unchanged.
 */
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { classifyError } from '../../src/errors/classify-error';
import { redactFailure } from '../../src/errors/redact-failure';

const SECRET = 'env-s3cret-3f6a2c90';

describe('redactFailure', () => {
  test('a classified server error: message and stack redacted; type and retryability kept', () => {
    const classified = classifyError(new ProtocolError(ProtocolErrorCode.InvalidParams, `the backend refused the key ${SECRET}`));
    const redacted = redactFailure(classified, [SECRET]);
    expect(redacted).toBeInstanceOf(ApplicationFailure);
    expect(redacted).toMatchObject({ type: 'mcp.invalid_params', nonRetryable: true });
    const failure = redacted as ApplicationFailure;
    expect(failure.message).toBe('rejected the arguments (JSON-RPC -32602): the backend refused the key [redacted]');
    expect(failure.stack).toContain('the backend refused the key [redacted]');
    expect(failure.stack).not.toContain(SECRET);
  });

  test('details, cause and retry delay: strings redacted, the rest kept', () => {
    const cause = new ApplicationFailure(`cause with ${SECRET}`, 'inner');
    const given = ApplicationFailure.create({
      message: 'GET https://u:pw@host/x failed',
      type: 'host.unexpected',
      nextRetryDelay: 1500,
      details: [{ url: `https://host/x?token=${SECRET}`, status: 500, nested: [SECRET] }],
      cause,
    });
    const failure = redactFailure(given, [SECRET]) as ApplicationFailure;
    expect(failure).toMatchObject({ type: 'host.unexpected', nonRetryable: false, nextRetryDelay: 1500, message: 'GET https://[redacted]@host/x failed' });
    expect(failure.details).toEqual([{ url: 'https://host/x?token=[redacted]', status: 500, nested: ['[redacted]'] }]);
    expect(failure.cause?.message).toBe('cause with [redacted]');
  });

  test('a plain error is redacted in place; a cancellation and non-errors pass', () => {
    const plain = new Error(`boom ${SECRET}`);
    expect((redactFailure(plain, [SECRET]) as Error).message).toBe('boom [redacted]');
    const cancelled = new CancelledFailure('the tool call was cancelled');
    expect(redactFailure(cancelled, [SECRET])).toBe(cancelled);
    expect(redactFailure(`thrown ${SECRET}`, [SECRET])).toBe('thrown [redacted]');
    expect(redactFailure(42, [SECRET])).toBe(42);
  });
});
