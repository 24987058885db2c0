import type { Message, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ClaudeReply } from '../activities/types';
import type { ReplyUsage } from '../conversation/usage-totals';
import { toRequestContent } from './reply-content';

/** The usage fields the host records (S8), cache fields defaulted to 0 when the API leaves them out. */
export function toReplyUsage(usage: Usage): ReplyUsage {
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
  };
}

/** A Messages API response as the activity returns it: content in request form, usage trimmed. */
export function toClaudeReply(reply: Message): ClaudeReply {
  return {
    id: reply.id,
    model: reply.model,
    content: toRequestContent(reply.content),
    stopReason: reply.stop_reason,
    stopSequence: reply.stop_sequence,
    usage: toReplyUsage(reply.usage),
  };
}
