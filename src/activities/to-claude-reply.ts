import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { toRequestContent } from '../claude/reply-content';
import { toReplyUsage } from '../claude/reply-usage';
import type { ClaudeReply } from './types';

/**
 * A Messages API response as the `callClaude` activity returns it: content in request form, usage
 * trimmed (with the server tools it used counted), and the code execution container it used.
 */
export function toClaudeReply(reply: Message): ClaudeReply {
  // `container` is null without code execution, and absent from fakes and older API versions.
  const container = (reply as Partial<Pick<Message, 'container'>>).container ?? null;
  return {
    id: reply.id,
    model: reply.model,
    content: toRequestContent(reply.content),
    stopReason: reply.stop_reason,
    stopSequence: reply.stop_sequence,
    usage: toReplyUsage(reply.usage, reply.content),
    ...(container !== null ? { container: { id: container.id, expiresAt: container.expires_at } } : {}),
  };
}
