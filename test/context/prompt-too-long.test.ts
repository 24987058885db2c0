import { decideCompaction } from '../../src/context/context-guard';
import { estimateTokens, isPromptTooLong } from '../../src/context/prompt-too-long';
import { contextStrategyProblem } from '../../src/context/strategy-spec';
import type { ContextStrategy } from '../../src/context/context-strategy';

describe('an over-long prompt', () => {
  test('is the 400 invalid_request_error saying "prompt is too long", nothing else', () => {
    expect(isPromptTooLong('claude.invalid_request_error', 'Claude API 400: prompt is too long: 212345 tokens > 200000 maximum')).toBe(true);
    expect(isPromptTooLong('claude.invalid_request_error', 'Claude API 400: messages: roles must alternate')).toBe(false);
    expect(isPromptTooLong('claude.api_error', 'prompt is too long')).toBe(false);
    expect(isPromptTooLong(undefined, 'prompt is too long')).toBe(false);
  });

  test('the guard counts tool results added since the last reply', () => {
    const base = { lastInputTokens: 150_000, lastOutputTokens: 1_000, contextWindow: 200_000, strategy: { kind: 'keep_all' } as const };
    expect(decideCompaction(base)).toBe('none');
    const result = [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x'.repeat(40_000) }];
    expect(estimateTokens(result)).toBeGreaterThan(10_000);
    expect(decideCompaction({ ...base, pendingTokens: estimateTokens(result) })).toBe('compact');
  });

  test('a strategy sent by a client is checked', () => {
    expect(contextStrategyProblem({ kind: 'last_turns', turns: 2 })).toBeUndefined();
    expect(contextStrategyProblem({ kind: 'keep_all' })).toBeUndefined();
    expect(contextStrategyProblem({ kind: 'last_turns', turns: 0 })).toMatch(/invalid context strategy/);
    expect(contextStrategyProblem({ kind: 'summarize', keepRecentTurns: 1.5 })).toMatch(/invalid context strategy/);
    expect(contextStrategyProblem({ kind: 'nope' } as unknown as ContextStrategy)).toMatch(/context strategy/);
  });
});
