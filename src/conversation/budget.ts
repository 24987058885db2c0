/**
 * A conversation's spending limit (issue 30, cost control): dollars by the price table
 * (src/models/), tokens by the usage totals (input, output and cache reads and writes together),
 * or both. Before each Claude call of a turn the workflow asks {@link budgetStop}: the call goes out
 * only if what is spent plus what that call's prompt would cost stays within the budget (its
 * output cannot be known before, so it is not guessed). A turn stopped this way ends
 * `budget_exceeded`; raising the budget (`setBudget`) lets the next turn run. Pure: no Node
 * built-ins (the workflow sandbox imports this).
 */
import { estimateCost } from './cost';
import type { PriceTable } from '../models/model-prices';
import type { UsageTotals } from './types';

/** A spending limit; at least one of the two. */
export interface Budget {
  /** US dollars, by the conversation's price table. */
  usd?: number;
  /** Tokens of every kind: input, output, cache writes and reads. */
  tokens?: number;
}

/** What is left of a budget (negative once passed), for the status. */
export interface BudgetLeft {
  usd?: number;
  tokens?: number;
}

const positive = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Why `budget` is not one (it came over the wire: an update's argument, an option), or undefined. */
export function budgetProblem(budget: Budget | null | undefined): string | undefined {
  if (budget === null || budget === undefined) return undefined;
  if (typeof budget !== 'object') return 'a budget is {usd?, tokens?}';
  if (budget.usd === undefined && budget.tokens === undefined) return 'a budget needs usd, tokens or both';
  if (budget.usd !== undefined && !positive(budget.usd)) return `budget usd must be a positive number, not ${String(budget.usd)}`;
  if (budget.tokens !== undefined && (!positive(budget.tokens) || !Number.isSafeInteger(budget.tokens))) {
    return `budget tokens must be a positive whole number, not ${String(budget.tokens)}`;
  }
  return undefined;
}

/** Every token the totals count. */
export function spentTokens(usage: UsageTotals): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}

/** The budget in the CLI's words: `$0.50, 100000 tokens`, or `none`. */
export function formatBudget(budget: Budget | null | undefined): string {
  if (budget === null || budget === undefined) return 'none';
  return [budget.usd !== undefined ? `$${budget.usd}` : undefined, budget.tokens !== undefined ? `${budget.tokens} tokens` : undefined].filter((part) => part !== undefined).join(', ');
}

/** What the conversation may still spend. */
export function budgetLeft(budget: Budget, usage: UsageTotals, model: string, prices?: Readonly<PriceTable>): BudgetLeft {
  const cost = estimateCost(usage, model, prices);
  return {
    ...(budget.usd !== undefined ? { usd: Math.round((budget.usd - cost.usd) * 1_000_000) / 1_000_000 } : {}),
    ...(budget.tokens !== undefined ? { tokens: budget.tokens - spentTokens(usage) } : {}),
  };
}

/**
 * Why the next Claude call must not go out (a line for the turn's result), or undefined when it may:
 * what is spent plus `nextInputTokens` (the call's prompt, estimated) would pass the budget. A model
 * the price table does not know has no dollar figure: a dollar budget cannot hold it back, and the
 * line says so if nothing else does.
 */
export function budgetStop(budget: Budget | undefined, usage: UsageTotals, model: string, nextInputTokens: number, prices?: Readonly<PriceTable>): string | undefined {
  if (budget === undefined) return undefined;
  const raise = 'raise it with `mcp-host budget ID` (or ConversationClient.setBudget) to go on';
  if (budget.tokens !== undefined) {
    const spent = spentTokens(usage);
    if (spent + nextInputTokens > budget.tokens) {
      return `budget reached: ${spent} of ${budget.tokens} tokens spent, and the next Claude call's prompt is about ${nextInputTokens} more; ${raise}`;
    }
  }
  if (budget.usd !== undefined) {
    const spent = estimateCost(usage, model, prices);
    const next = estimateCost({ inputTokens: nextInputTokens, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, model, prices);
    if (spent.priced && spent.usd + next.usd > budget.usd) {
      return `budget reached: $${spent.usd.toFixed(4)} of $${budget.usd} spent, and the next Claude call's prompt is about $${next.usd.toFixed(4)} more; ${raise}`;
    }
  }
  return undefined;
}
