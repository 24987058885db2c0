/**
 * What the host sent Claude as a tool's result: read from the requests a fake Messages API
 * recorded, the text of the `tool_result` block answering `toolUseId`.
 */
import type { MessageParam } from '../../src/conversation/types';

/** The text of the first recorded `tool_result` for `toolUseId` (its text blocks joined), or undefined. */
export function toolResultText(requests: readonly { body: unknown }[], toolUseId: string): string | undefined {
  for (const request of requests) {
    const messages = (request.body as { messages?: MessageParam[] }).messages ?? [];
    const last = messages[messages.length - 1];
    if (!last || typeof last.content === 'string') continue;
    for (const block of last.content) {
      if (block.type === 'tool_result' && block.tool_use_id === toolUseId) {
        return typeof block.content === 'string' ? block.content : (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
      }
    }
  }
  return undefined;
}
