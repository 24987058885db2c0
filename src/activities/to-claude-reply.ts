import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { toRequestContent } from '../claude/reply-content';
import { toReplyUsage } from '../claude/reply-usage';
import type { ClaudeReply } from './types';

/** A Messages API response as the `callClaude` activity returns it: content in request form, usage trimmed. */
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
