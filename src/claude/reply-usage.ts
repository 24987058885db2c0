import type { ContentBlock, Usage } from '@anthropic-ai/sdk/resources/messages';
import { CODE_EXECUTION_CALL_NAMES } from './server-tools';

/**
 * The `usage` fields of one reply that the host records and adds up (null when the API left one out).
 * The server tool counters are present only when the reply used a server tool, so a reply without
 * one is recorded as it was before server tools existed.
 */
export interface ReplyUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /**
   * What a server-side compaction in this reply cost (the `compaction` entries of `usage.iterations`,
   * which the top-level fields leave out): billed like any tokens. Absent when nothing compacted.
   */
  compaction?: { input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number };
  /** The API's own count of the reply's web searches and web fetches (`usage.server_tool_use`). */
  server_tool_use?: { web_search_requests: number; web_fetch_requests: number };
  /**
   * Code execution calls in the reply: its `server_tool_use` blocks of code execution (Python, bash,
   * file editor), counted by the host, since the API's usage has no counter for them.
   */
  code_execution_calls?: number;
}

/** One entry of the beta `usage.iterations` (a compaction, or the message itself). */
interface IterationUsage {
  type?: string;
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The compaction entries of `usage.iterations`, added up; undefined when there are none. */
function compactionUsage(usage: Usage): ReplyUsage['compaction'] {
  const iterations = (usage as Usage & { iterations?: IterationUsage[] | null }).iterations;
  const compactions = (iterations ?? []).filter((entry) => entry.type === 'compaction');
  if (compactions.length === 0) return undefined;
  const sum = (field: keyof Omit<IterationUsage, 'type'>): number => compactions.reduce((n, entry) => n + (entry[field] ?? 0), 0);
  return {
    input_tokens: sum('input_tokens'),
    output_tokens: sum('output_tokens'),
    cache_creation_input_tokens: sum('cache_creation_input_tokens'),
    cache_read_input_tokens: sum('cache_read_input_tokens'),
  };
}

/**
 * The usage fields the host records (S8), cache fields defaulted to 0 when the API leaves them out;
 * with the reply's `content`, its code execution calls too.
 */
export function toReplyUsage(usage: Usage, content: readonly ContentBlock[] = []): ReplyUsage {
  const server = usage.server_tool_use;
  const searches = server?.web_search_requests ?? 0;
  const fetches = server?.web_fetch_requests ?? 0;
  const codeCalls = content.filter((b) => b.type === 'server_tool_use' && CODE_EXECUTION_CALL_NAMES.has(b.name)).length;
  const compaction = compactionUsage(usage);
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    ...(compaction !== undefined ? { compaction } : {}),
    ...(searches > 0 || fetches > 0 ? { server_tool_use: { web_search_requests: searches, web_fetch_requests: fetches } } : {}),
    ...(codeCalls > 0 ? { code_execution_calls: codeCalls } : {}),
  };
}
