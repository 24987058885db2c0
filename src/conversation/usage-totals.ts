import type { ReplyUsage } from '../claude/reply-usage';
import type { UsageTotals } from './types';

/** Zero usage. */
export const NO_USAGE: UsageTotals = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };

/** Adds one reply's usage to the totals (S8: usage comes with every response and is recorded). */
export function addUsage(totals: UsageTotals, usage: ReplyUsage): UsageTotals {
  return {
    inputTokens: totals.inputTokens + usage.input_tokens,
    outputTokens: totals.outputTokens + usage.output_tokens,
    cacheCreationInputTokens: totals.cacheCreationInputTokens + (usage.cache_creation_input_tokens ?? 0),
    cacheReadInputTokens: totals.cacheReadInputTokens + (usage.cache_read_input_tokens ?? 0),
  };
}
