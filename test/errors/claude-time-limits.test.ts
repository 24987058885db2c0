/**
 * The Claude call's time limits, the one decision the activity enforces and the workflow sizes its
 * timeouts from; and how the classifier types a cut call and an error inside a stream.
 */
import { APIError } from '@anthropic-ai/sdk';
import {
  claudeActivityTimeoutMs,
  claudeCallLimits,
  ClaudeTimeLimitError,
  DEFAULT_STALL_TIMEOUT_MS,
  generationTimeoutMs,
} from '../../src/errors/claude-time-limits';
import { classifyError } from '../../src/errors/classify-error';

const MINUTE = 60_000;

describe('Claude call time limits', () => {
  test('the total follows the SDK estimate (an hour for 128,000 tokens), at least 10 minutes', () => {
    expect(generationTimeoutMs(1024)).toBe(10 * MINUTE);
    expect(generationTimeoutMs(21_333)).toBe(10 * MINUTE);
    expect(generationTimeoutMs(64_000)).toBe(30 * MINUTE);
    expect(generationTimeoutMs(128_000)).toBe(60 * MINUTE);
  });

  test('the stall limit (3 minutes) is below Node fetch’s 300 s header/body timeouts, and overrides win', () => {
    expect(DEFAULT_STALL_TIMEOUT_MS).toBe(3 * MINUTE);
    expect(DEFAULT_STALL_TIMEOUT_MS).toBeLessThan(300_000);
    expect(claudeCallLimits(8192)).toEqual({ stallTimeoutMs: 3 * MINUTE, totalTimeoutMs: 10 * MINUTE });
    expect(claudeCallLimits(8192, { stallTimeoutMs: 500 })).toEqual({ stallTimeoutMs: 500, totalTimeoutMs: 10 * MINUTE });
  });

  test.each([1024, 8192, 64_000, 128_000])('max_tokens %i: the activity’s start-to-close outlasts the call’s own limits', (maxTokens) => {
    const limits = claudeCallLimits(maxTokens);
    expect(claudeActivityTimeoutMs(maxTokens)).toBeGreaterThan(limits.totalTimeoutMs);
    expect(claudeActivityTimeoutMs(maxTokens)).toBeGreaterThan(limits.stallTimeoutMs);
  });

  test('a stalled call is retried (claude.stalled); one past its total is not (claude.timeout)', () => {
    expect(classifyError(new ClaudeTimeLimitError('stall', 180_000))).toMatchObject({ type: 'claude.stalled', nonRetryable: false });
    const total = classifyError(new ClaudeTimeLimitError('total', 600_000));
    expect(total).toMatchObject({ type: 'claude.timeout', nonRetryable: true });
    expect(total.message).toMatch(/600 s/);
  });

  test.each<[string, boolean]>([
    ['overloaded_error', false],
    ['api_error', false],
    ['rate_limit_error', false],
    ['invalid_request_error', true],
  ])('an %s event inside a stream (no HTTP status): nonRetryable %s', (type, nonRetryable) => {
    const err = new APIError(undefined, { type: 'error', error: { type, message: 'm' } }, undefined, new Headers(), type as never);
    expect(classifyError(err)).toMatchObject({ type: `claude.${type}`, nonRetryable });
  });
});
