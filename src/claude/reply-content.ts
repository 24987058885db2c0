import type { ContentBlock, ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * A response's content in the request form it is sent back in (the assistant message, seed §6).
 * Response blocks carry read-only extras (`citations: null`, …) that a request does not need;
 * text and tool_use are rebuilt to their request shape, everything else goes back as received:
 * server tool blocks (`server_tool_use`, `web_search_tool_result`, `web_fetch_tool_result`, the code
 * execution results, `tool_search_tool_result`) have a request type that takes every field of the
 * response type (`caller`, `page_age`, `retrieved_at`…), and the API wants them back unchanged
 * (encrypted search content included) to continue a paused turn or cite what was found.
 * Thinking blocks go back exactly (text and signature), except one cut before its signature came
 * (a reply stopped at `max_tokens` while thinking): the API refuses an unsigned block, and a turn
 * that ended that way need not send its thinking back.
 */
export function toRequestContent(content: readonly ContentBlock[]): ContentBlockParam[] {
  return content.filter((block) => block.type !== 'thinking' || block.signature !== '').map((block): ContentBlockParam => {
    switch (block.type) {
      case 'text':
        return block.citations && block.citations.length > 0
          ? { type: 'text', text: block.text, citations: block.citations }
          : { type: 'text', text: block.text };
      case 'tool_use':
        return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
      case 'thinking':
        return { type: 'thinking', thinking: block.thinking, signature: block.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: block.data };
      default:
        return block;
    }
  });
}
