import type { Usage } from '@anthropic-ai/sdk/resources/messages';

/** The `usage` fields of one reply that the host records and adds up (null when the API left one out). */
export interface ReplyUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The usage fields the host records (S8), cache fields defaulted to 0 when the API leaves them out. */
export function toReplyUsage(usage: Usage): ReplyUsage {
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
  };
}
