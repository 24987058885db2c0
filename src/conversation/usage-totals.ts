/**
 * A conversation's usage, summed over its replies (S8: usage comes with every response and is
 * recorded): tokens, and the server tools the API ran for it. Pure: the workflow sandbox imports this.
 */
import type { ReplyUsage } from '../claude/reply-usage';

/**
 * Token usage summed over a conversation, with its server tool calls. The server tool counters are
 * absent until the conversation used one: totals recorded before server tools existed (a
 * continue-as-new input, a status answered by an older worker) read as zero.
 */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  /** Web searches the API ran (its `usage.server_tool_use.web_search_requests`): priced per search. */
  webSearchRequests?: number;
  /** Web fetches the API ran (`usage.server_tool_use.web_fetch_requests`): no charge beyond their tokens. */
  webFetchRequests?: number;
  /**
   * Code execution calls (`server_tool_use` blocks of code execution, counted by the host: the API's
   * usage has no counter for them). Billed by container time, which no reply reports.
   */
  codeExecutionCalls?: number;
}

/** Zero usage. */
export const NO_USAGE: UsageTotals = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };

/** `field: total` when the total is above zero, else nothing (totals without server tools keep their shape). */
function counter<K extends 'webSearchRequests' | 'webFetchRequests' | 'codeExecutionCalls'>(field: K, total: number): Partial<Record<K, number>> {
  return total > 0 ? ({ [field]: total } as Partial<Record<K, number>>) : {};
}

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
    ...counter('webSearchRequests', (totals.webSearchRequests ?? 0) + (usage.server_tool_use?.web_search_requests ?? 0)),
    ...counter('webFetchRequests', (totals.webFetchRequests ?? 0) + (usage.server_tool_use?.web_fetch_requests ?? 0)),
    ...counter('codeExecutionCalls', (totals.codeExecutionCalls ?? 0) + (usage.code_execution_calls ?? 0)),
  };
}
