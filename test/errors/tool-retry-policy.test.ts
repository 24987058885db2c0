/**
 * The tool retry policy as data: which failures spend a tool's attempt budget, when the budget is
 * spent, the backoff between the tool's own failures, and Temporal's side of it (no attempt limit).
 */
import { compileRetryPolicy } from '@temporalio/common';
import {
  decideToolFailure,
  fastToolCallRetryPolicy,
  fastToolFailuresBefore,
  IDEMPOTENT_TOOL_ATTEMPTS,
  NON_IDEMPOTENT_TOOL_ATTEMPTS,
  TOOL_CALL_RETRY_POLICY,
  toolAttemptBudget,
  toolAttemptTimeouts,
} from '../../src/errors/tool-retry-policy';

describe('tool retry policy', () => {
  test('budgets: 3 attempts for a tool not marked idempotent, 6 for one that is', () => {
    expect(toolAttemptBudget(false)).toBe(NON_IDEMPOTENT_TOOL_ATTEMPTS);
    expect(toolAttemptBudget(true)).toBe(IDEMPOTENT_TOOL_ATTEMPTS);
    expect([NON_IDEMPOTENT_TOOL_ATTEMPTS, IDEMPOTENT_TOOL_ATTEMPTS]).toEqual([3, 6]);
  });

  test("a tool's retryable failures spend its budget, with backoff; the last one gives up", () => {
    const timeout = { type: 'mcp.server_error', retryable: true };
    expect([0, 1, 2].map((before) => decideToolFailure(timeout, before, false))).toEqual([
      { kind: 'retry', toolFailures: 1, delayMs: 1000 },
      { kind: 'retry', toolFailures: 2, delayMs: 2000 },
      { kind: 'give_up', toolFailures: 3 },
    ]);
    expect([3, 4, 5].map((before) => decideToolFailure(timeout, before, true))).toEqual([
      { kind: 'retry', toolFailures: 4, delayMs: 8000 },
      { kind: 'retry', toolFailures: 5, delayMs: 16_000 },
      { kind: 'give_up', toolFailures: 6 },
    ]);
  });

  // The request never reached the server, or the server answered that it failed: running it again cannot duplicate what it did.
  test.each(['mcp.unreachable', 'mcp.connect_failed', 'mcp.server_error', 'host.unexpected', undefined])(
    '%s counts as a failure of the tool and is retried, idempotent or not',
    (type) => {
      expect(decideToolFailure({ type, retryable: true }, 0, false)).toMatchObject({ kind: 'retry', toolFailures: 1 });
      expect(decideToolFailure({ type, retryable: true }, 0, true)).toMatchObject({ kind: 'retry', toolFailures: 1 });
    },
  );

  // The request reached the server and no answer says it did not run: a timeout (whether the server
  // still answers ping, so the call probably still runs, or not, so its process is dropped), a
  // connection lost mid-call, an answer that is not JSON-RPC.
  test.each(['mcp.timeout', 'mcp.connection_lost', 'mcp.connection_closed', 'mcp.protocol_error'])(
    '%s: a tool that may have run is not run again unless marked idempotent or read-only',
    (type) => {
      expect(decideToolFailure({ type, retryable: true }, 0, false)).toEqual({ kind: 'give_up', toolFailures: 1, mayHaveRun: true });
      expect(decideToolFailure({ type, retryable: true }, 0, true)).toEqual({ kind: 'retry', toolFailures: 1, delayMs: 1000 });
      expect(decideToolFailure({ type, retryable: true }, 5, true)).toEqual({ kind: 'give_up', toolFailures: 6 });
    },
  );

  test('failures that are final already, or the worker’s (shutting down), pass through uncounted', () => {
    expect(decideToolFailure({ type: 'mcp.invalid_params', retryable: false }, 0, false)).toEqual({ kind: 'pass' });
    expect(decideToolFailure({ type: 'mcp.tool_denied', retryable: false }, 2, false)).toEqual({ kind: 'pass' });
    expect(decideToolFailure({ type: 'mcp.shutting_down', retryable: true }, 2, false)).toEqual({ kind: 'pass' });
  });

  test('Temporal retries callTool without an attempt limit, so a lost worker never spends the budget', () => {
    expect(compileRetryPolicy(TOOL_CALL_RETRY_POLICY).maximumAttempts).toBeUndefined();
    expect(TOOL_CALL_RETRY_POLICY.maximumInterval).toBe('10 seconds');
  });

  test("an attempt's own deadline comes before Temporal's start-to-close timeout", () => {
    for (const serverTimeoutMs of [1000, 60_000, 600_000]) {
      const { deadlineMs, startToCloseMs } = toolAttemptTimeouts(serverTimeoutMs);
      expect(deadlineMs).toBeGreaterThan(serverTimeoutMs);
      expect(startToCloseMs - deadlineMs).toBeGreaterThanOrEqual(10_000);
    }
  });

  test('a fast call (local activity): at most its budget of attempts, with the tool backoff; earlier attempts are failures', () => {
    expect(compileRetryPolicy(fastToolCallRetryPolicy(false))).toMatchObject({ maximumAttempts: 3, backoffCoefficient: 2 });
    expect(compileRetryPolicy(fastToolCallRetryPolicy(true))).toMatchObject({ maximumAttempts: 6 });
    const policy = compileRetryPolicy(fastToolCallRetryPolicy(true));
    expect(Number(policy.initialInterval?.seconds)).toBe(1);
    // Every backoff stays below the local retry threshold (1 minute): retries never become workflow timers.
    expect(Number(policy.maximumInterval?.seconds)).toBe(20);
    expect([1, 2, 3].map(fastToolFailuresBefore)).toEqual([0, 1, 2]);
    expect(fastToolFailuresBefore(0)).toBe(0);
  });
});
