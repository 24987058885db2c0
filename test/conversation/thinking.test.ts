import {
  ADAPTIVE_THINKING_MAX_TOKENS,
  formatThinking,
  parseThinking,
  thinkingProblem,
  thinkingRequestFields,
  type Thinking,
} from '../../src/conversation/thinking';

describe('the --thinking spellings', () => {
  test.each<[string, Thinking | null]>([
    ['off', null],
    ['adaptive', { type: 'adaptive' }],
    ['adaptive:low', { type: 'adaptive', effort: 'low' }],
    ['adaptive:max', { type: 'adaptive', effort: 'max' }],
    ['1024', { type: 'enabled', budgetTokens: 1024 }],
    [' 8000 ', { type: 'enabled', budgetTokens: 8000 }],
  ])('%s', (spec, thinking) => {
    expect(parseThinking(spec)).toEqual(thinking);
    expect(formatThinking(thinking)).toBe(spec.trim());
  });

  test.each(['', 'on', 'enabled', '1023', '0', '-2048', '1.5e3', 'adaptive:', 'adaptive:extreme', 'adaptive:high:x', '4096:high'])('"%s" is refused with the accepted forms', (spec) => {
    expect(() => parseThinking(spec)).toThrow(/expected off, adaptive, adaptive:EFFORT \(low\|medium\|high\|xhigh\|max\) or a token budget BUDGET ≥ 1024/);
  });
});

describe('thinkingProblem: what the API would refuse', () => {
  test('off and adaptive always fit; a budget fits from 1024 tokens up to below max_tokens', () => {
    expect(thinkingProblem(null, 10)).toBeUndefined();
    expect(thinkingProblem(undefined, 10)).toBeUndefined();
    expect(thinkingProblem({ type: 'adaptive', effort: 'high' }, 10)).toBeUndefined();
    expect(thinkingProblem({ type: 'enabled', budgetTokens: 1024 }, 1025)).toBeUndefined();
    expect(thinkingProblem({ type: 'enabled', budgetTokens: 1024 }, 1024)).toMatch(/thinking budget \(1024 tokens\) must be less than maxTokens \(1024\)/);
    expect(thinkingProblem({ type: 'enabled', budgetTokens: 1000 }, 4096)).toMatch(/at least 1024 tokens, got 1000/);
    expect(thinkingProblem({ type: 'enabled', budgetTokens: 2048.5 }, 4096)).toMatch(/integer/);
  });

  test('shapes that came over the wire wrong are named', () => {
    expect(thinkingProblem({ type: 'auto' } as unknown as Thinking, 4096)).toMatch(/invalid thinking \{"type":"auto"\}/);
    expect(thinkingProblem({ type: 'adaptive', effort: 'extreme' } as unknown as Thinking, 4096)).toMatch(/invalid thinking/);
    expect(thinkingProblem({ type: 'adaptive', budgetTokens: 2048 } as unknown as Thinking, 4096)).toMatch(/invalid thinking/);
    expect(thinkingProblem('adaptive' as unknown as Thinking, 4096)).toMatch(/invalid thinking/);
  });
});

describe('thinkingRequestFields: the SDK request shape', () => {
  test('a budget is `thinking: enabled`; adaptive is `thinking: adaptive`, its effort in `output_config`', () => {
    expect(thinkingRequestFields({ type: 'enabled', budgetTokens: 2048 })).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(thinkingRequestFields({ type: 'adaptive' })).toEqual({ thinking: { type: 'adaptive' } });
    expect(thinkingRequestFields({ type: 'adaptive', effort: 'xhigh' })).toEqual({ thinking: { type: 'adaptive' }, output_config: { effort: 'xhigh' } });
  });

  test('adaptive thinking gets room by default', () => {
    expect(ADAPTIVE_THINKING_MAX_TOKENS).toBeGreaterThan(1024);
  });
});
