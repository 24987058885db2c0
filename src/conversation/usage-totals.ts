import type { UsageTotals } from './types';

/** The `usage` fields of one reply that the totals add up (null when the API left one out). */
export interface ReplyUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

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
