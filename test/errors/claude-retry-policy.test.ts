import { compileRetryPolicy } from '@temporalio/common';
import { CLAUDE_CALL_RETRY_POLICY, claudeFailureDelayMs } from '../../src/errors/claude-retry-policy';

describe('the Claude call retry policy', () => {
  test("Temporal's own interval is short: it is left to attempts lost with their worker", () => {
    const policy = compileRetryPolicy(CLAUDE_CALL_RETRY_POLICY);
    expect(Number(policy.initialInterval?.seconds ?? 0) * 1000 + (policy.initialInterval?.nanos ?? 0) / 1e6).toBe(100);
    expect(policy.maximumAttempts).toBe(10);
  });

  test("the API's own failures back off 1 s, 2 s, 4 s… by attempt, up to a minute", () => {
    expect([1, 2, 3, 4].map(claudeFailureDelayMs)).toEqual([1000, 2000, 4000, 8000]);
    expect(claudeFailureDelayMs(7)).toBe(60_000);
    expect(claudeFailureDelayMs(30)).toBe(60_000);
    expect(claudeFailureDelayMs(0)).toBe(1000);
  });
});
