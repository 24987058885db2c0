import type { ReplyUsage } from '../claude/reply-usage';
import type { UsageTotals } from './types';

/** Zero usage. */
export const NO_USAGE: UsageTotals = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };

/**
 * Adds one reply's usage to the totals (S8: usage comes with every response and is recorded). A
 * server-side compaction's tokens count too: they are billed, though the reply's top-level fields
 * leave them out.
 */
export function addUsage(totals: UsageTotals, usage: ReplyUsage): UsageTotals {
  const compaction = usage.compaction;
  return {
    inputTokens: totals.inputTokens + usage.input_tokens + (compaction?.input_tokens ?? 0),
    outputTokens: totals.outputTokens + usage.output_tokens + (compaction?.output_tokens ?? 0),
    cacheCreationInputTokens: totals.cacheCreationInputTokens + (usage.cache_creation_input_tokens ?? 0) + (compaction?.cache_creation_input_tokens ?? 0),
    cacheReadInputTokens: totals.cacheReadInputTokens + (usage.cache_read_input_tokens ?? 0) + (compaction?.cache_read_input_tokens ?? 0),
  };
}
