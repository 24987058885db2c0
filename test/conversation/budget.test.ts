/**
 * The budget rules (src/conversation/budget.ts): what a budget may be, what is left, and when the
 * next Claude call must not go out (what is spent plus its prompt would pass it, dollars by the price
 * table, tokens of every kind).
 */
import { budgetLeft, budgetProblem, budgetStop, formatBudget, spentTokens } from '../../src/conversation/budget';
import type { UsageTotals } from '../../src/conversation/usage-totals';

const MODEL = 'claude-sonnet-4-6';
const usage = (input: number, output: number, write = 0, read = 0): UsageTotals => ({ inputTokens: input, outputTokens: output, cacheCreationInputTokens: write, cacheReadInputTokens: read });

describe('budget', () => {
  test.each([
    [{ usd: 0.5 }, undefined],
    [{ tokens: 1000 }, undefined],
    [{ usd: 1, tokens: 10 }, undefined],
    [{}, 'a budget needs usd, tokens or both'],
    [{ usd: 0 }, 'budget usd must be a positive number, not 0'],
    [{ usd: Number.NaN }, 'budget usd must be a positive number, not NaN'],
    [{ tokens: 1.5 }, 'budget tokens must be a positive whole number, not 1.5'],
    [{ tokens: -3 }, 'budget tokens must be a positive whole number, not -3'],
  ])('%j → %s', (budget, problem) => expect(budgetProblem(budget)).toBe(problem));

  test('none is no problem, and reads as none', () => {
    expect(budgetProblem(null)).toBeUndefined();
    expect(formatBudget(null)).toBe('none');
    expect(formatBudget({ usd: 0.5, tokens: 20_000 })).toBe('$0.5, 20000 tokens');
  });

  test('tokens of every kind count', () => {
    expect(spentTokens(usage(100, 20, 30, 400))).toBe(550);
    expect(budgetLeft({ tokens: 1000 }, usage(100, 20, 30, 400), MODEL)).toEqual({ tokens: 450 });
  });

  test('tokens: the next call goes out while spent plus its prompt stays within', () => {
    expect(budgetStop({ tokens: 1000 }, usage(500, 100), MODEL, 400)).toBeUndefined();
    expect(budgetStop({ tokens: 1000 }, usage(500, 100), MODEL, 401)).toMatch(/^budget reached: 600 of 1000 tokens spent, and the next Claude call's prompt is about 401 more/);
  });

  test('dollars, by the price table: the prompt at the input price', () => {
    // $3 / MTok in, $15 / MTok out: 100,000 in and 10,000 out are $0.45.
    expect(budgetLeft({ usd: 1 }, usage(100_000, 10_000), MODEL)).toEqual({ usd: 0.55 });
    expect(budgetStop({ usd: 0.5 }, usage(100_000, 10_000), MODEL, 16_000)).toBeUndefined();
    expect(budgetStop({ usd: 0.5 }, usage(100_000, 10_000), MODEL, 17_000)).toMatch(/^budget reached: \$0\.4500 of \$0\.5 spent, and the next Claude call's prompt is about \$0\.0510 more/);
  });

  test('no budget never stops; an unpriced model cannot be held by dollars', () => {
    expect(budgetStop(undefined, usage(10 ** 9, 10 ** 9), MODEL, 10 ** 9)).toBeUndefined();
    expect(budgetStop({ usd: 0.01 }, usage(10 ** 9, 0), 'some-unknown-model', 1000)).toBeUndefined();
  });
});
