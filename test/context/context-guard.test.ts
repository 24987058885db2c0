import { decideCompaction, DEFAULT_COMPACTION_THRESHOLD, promptTokensOf } from '../../src/context/context-guard';
import { applyContextStrategy, type ContextStrategy } from '../../src/context/context-strategy';
import { canEscalate, escalate } from '../../src/context/escalate-strategy';
import { formatContextStrategy, parseContextStrategy } from '../../src/context/strategy-spec';
import { assertValidTranscript } from '../../src/context/validate-pairing';
import { deepFreeze, randomSource, randomTranscript } from './random-transcripts';

const KEEP_ALL: ContextStrategy = { kind: 'keep_all' };

describe('promptTokensOf', () => {
  test('adds the cached prefix to input_tokens (which counts only what follows the last breakpoint)', () => {
    expect(promptTokensOf({ input_tokens: 120, output_tokens: 50, cache_creation_input_tokens: 3000, cache_read_input_tokens: 90_000 })).toBe(93_120);
    expect(promptTokensOf({ input_tokens: 120, output_tokens: 50 })).toBe(120);
    expect(promptTokensOf({ input_tokens: 120, output_tokens: 50, cache_creation_input_tokens: null, cache_read_input_tokens: null })).toBe(120);
  });
});

describe('decideCompaction', () => {
  const at = (lastInputTokens: number, strategy: ContextStrategy = KEEP_ALL, extra: object = {}): string =>
    decideCompaction({ lastInputTokens, contextWindow: 200_000, strategy, ...extra });

  test('compacts at the threshold (default 0.8 of the window), not below', () => {
    expect(DEFAULT_COMPACTION_THRESHOLD).toBe(0.8);
    expect(at(159_999)).toBe('none');
    expect(at(160_000)).toBe('compact');
    expect(at(199_000)).toBe('compact');
    expect(at(100_000, KEEP_ALL, { threshold: 0.5 })).toBe('compact');
    expect(at(99_999, KEEP_ALL, { threshold: 0.5 })).toBe('none');
  });

  test('counts the last reply, which joins the next prompt', () => {
    expect(at(150_000, KEEP_ALL, { lastOutputTokens: 9_999 })).toBe('none');
    expect(at(150_000, KEEP_ALL, { lastOutputTokens: 10_000 })).toBe('compact');
  });

  test('does not ask for what cannot be done: last_turns(1) is as small as a request gets', () => {
    expect(at(190_000, { kind: 'last_turns', turns: 1 })).toBe('none');
    expect(at(190_000, { kind: 'last_turns', turns: 2 })).toBe('compact');
    // summarize can always write a new summary.
    expect(at(190_000, { kind: 'summarize', keepRecentTurns: 1 })).toBe('compact');
  });
});

describe('escalate', () => {
  test('the ladder from keep_all', () => {
    const ladder: string[] = [];
    let strategy: ContextStrategy = KEEP_ALL;
    for (let i = 0; i < 6; i++) {
      ladder.push(formatContextStrategy(strategy));
      strategy = escalate(strategy);
    }
    expect(ladder).toEqual(['keep_all', 'placeholder_tool_results:2', 'last_turns:2', 'last_turns:1', 'last_turns:1', 'last_turns:1']);
    expect(canEscalate({ kind: 'last_turns', turns: 1 })).toBe(false);
    expect(canEscalate(KEEP_ALL)).toBe(true);
  });

  test('wide windows narrow first; summarize halves what it keeps', () => {
    expect(escalate({ kind: 'placeholder_tool_results', keepRecentTurns: 10 })).toEqual({ kind: 'placeholder_tool_results', keepRecentTurns: 2 });
    expect(escalate({ kind: 'placeholder_tool_results', keepRecentTurns: 1 })).toEqual({ kind: 'last_turns', turns: 1 });
    expect(escalate({ kind: 'last_turns', turns: 9 })).toEqual({ kind: 'last_turns', turns: 4 });
    expect(escalate({ kind: 'summarize', keepRecentTurns: 4 })).toEqual({ kind: 'summarize', keepRecentTurns: 2 });
    expect(escalate({ kind: 'summarize', keepRecentTurns: 1 })).toEqual({ kind: 'summarize', keepRecentTurns: 1 });
  });

  test('property: each step sends no more than the step before, and stays a valid transcript', () => {
    const starts: ContextStrategy[] = [
      KEEP_ALL,
      { kind: 'placeholder_tool_results', keepRecentTurns: 5 },
      { kind: 'last_turns', turns: 7 },
    ];
    for (let seed = 1; seed <= 60; seed++) {
      const stored = deepFreeze(randomTranscript(seed, 2 + Math.floor(randomSource(seed)() * 8)));
      for (const start of starts) {
        let strategy = start;
        let size = JSON.stringify(applyContextStrategy(stored, strategy)).length;
        for (let step = 0; step < 6; step++) {
          strategy = escalate(strategy);
          const sent = applyContextStrategy(stored, strategy);
          assertValidTranscript(sent);
          const next = JSON.stringify(sent).length;
          expect(next).toBeLessThanOrEqual(size);
          size = next;
        }
      }
    }
  });
});

describe('parseContextStrategy / formatContextStrategy', () => {
  test.each<[string, ContextStrategy]>([
    ['keep_all', { kind: 'keep_all' }],
    ['last_turns:6', { kind: 'last_turns', turns: 6 }],
    ['placeholder_tool_results:2', { kind: 'placeholder_tool_results', keepRecentTurns: 2 }],
    ['summarize:4', { kind: 'summarize', keepRecentTurns: 4 }],
  ])('%s round-trips', (spec, strategy) => {
    expect(parseContextStrategy(spec)).toEqual(strategy);
    expect(formatContextStrategy(strategy)).toBe(spec);
  });

  test.each(['', 'keep_all:3', 'last_turns', 'last_turns:0', 'last_turns:-1', 'last_turns:1.5', 'last_turns:x', 'summarize:2:3', 'fold:2'])(
    'rejects %p with the accepted forms',
    (spec) => {
      expect(() => parseContextStrategy(spec)).toThrow(/expected keep_all, last_turns:N, placeholder_tool_results:N, summarize:N \(N ≥ 1 turns\), compact\[:TRIGGER\] .* or clear_tool_uses:N\[:TRIGGER\]/);
    },
  );
});
