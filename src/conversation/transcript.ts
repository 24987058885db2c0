/**
 * Pure transitions of the `messages` array (seed §6–§8). The workflow applies them; tests run
 * them without Temporal. Every function keeps the array valid for the Messages API: roles
 * alternate, and every `tool_use` is answered by a `tool_result` in the very next user message.
 */
import type { ContentBlockParam, MessageParam } from './types';

/** A `tool_use` block as it stands in an assistant message. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** A `tool_result` block (S12–S14): `is_error` only when the call failed. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: Extract<ContentBlockParam, { type: 'tool_result' }>['content'];
  is_error?: boolean;
}

/**
 * The user message for a new turn. Plain text becomes a string content, as in the seed. When the
 * array already ends with a user message (a turn that ended on tool results, or one that failed
 * before Claude answered), the text joins that message: two user messages in a row would not be
 * a valid alternation.
 */
export function withUserText(messages: readonly MessageParam[], text: string): MessageParam[] {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return [...messages, { role: 'user', content: text }];
  const blocks: ContentBlockParam[] =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  return [...messages.slice(0, -1), { role: 'user', content: [...blocks, { type: 'text', text }] }];
}

/** The `tool_use` blocks of an assistant content, in order. */
export function toolUsesOf(content: readonly ContentBlockParam[]): ToolUseBlock[] {
  return content.filter((block): block is ToolUseBlock & ContentBlockParam => block.type === 'tool_use');
}

/**
 * Removes `tool_use` blocks that will never run (a reply that stopped for another reason than
 * `tool_use`, e.g. cut by `max_tokens`), so the history never holds an unanswered call.
 * An assistant message may not be empty: a placeholder text says what was dropped.
 */
export function withoutToolUses(content: readonly ContentBlockParam[], why: string): ContentBlockParam[] {
  const kept = content.filter((block) => block.type !== 'tool_use');
  if (kept.length === content.length && kept.length > 0) return [...content];
  const dropped = content.length - kept.length;
  const note = dropped > 0 ? `[host: ${dropped} unexecuted tool call(s) removed: ${why}]` : `[host: empty reply: ${why}]`;
  return kept.length > 0 ? kept : [{ type: 'text', text: note }];
}

/** The id a server tool's result block answers (`web_search_tool_result`…), or undefined for any other block. */
function serverResultId(block: ContentBlockParam): string | undefined {
  return block.type !== 'tool_result' && block.type.endsWith('_tool_result') && 'tool_use_id' in block ? block.tool_use_id : undefined;
}

/**
 * The messages without the `server_tool_use` blocks that no result answers, or null when
 * there are none. The API leaves a server tool's call unanswered in two cases only, and takes it
 * back only there: at the end of a paused turn (`pause_turn`: the request that continues it must
 * end with that assistant message), and beside a `tool_use` (the call is deferred until the tool
 * results come back alone in the next user message). A turn that ends otherwise (the iteration
 * limit, a failed or cancelled call, `max_tokens`) would leave such a call in the history, and
 * every later request would be refused (``web_search` tool use … was found without a
 * corresponding `web_search_tool_result` block``). So, as for `tool_use`, the history never keeps
 * one: it goes, and an assistant message left empty says why.
 */
export function withoutUnansweredServerToolUses(messages: readonly MessageParam[]): MessageParam[] | null {
  const answered = new Set<string>();
  const asked: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      const id = serverResultId(block);
      if (id !== undefined) answered.add(id);
      if (block.type === 'server_tool_use') asked.push(block.id);
    }
  }
  // Nearly always: every call answered (or none made), and nothing is copied.
  if (asked.every((id) => answered.has(id))) return null;
  return messages.map((message): MessageParam => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return message;
    const kept = message.content.filter((block) => block.type !== 'server_tool_use' || answered.has(block.id));
    if (kept.length === message.content.length) return message;
    const dropped = message.content.length - kept.length;
    const note = `[host: ${dropped} server tool call(s) removed: the turn ended before the API answered them]`;
    return { role: 'assistant', content: kept.length > 0 ? kept : [{ type: 'text', text: note }] };
  });
}

/** One user message carrying every tool result, in the order of the `tool_use` blocks (S17). */
export function toolResultsMessage(results: readonly ToolResultBlock[]): MessageParam {
  return { role: 'user', content: results.map((result) => ({ ...result })) };
}

/** The text of an assistant content: its text blocks joined (seed §8.2 `finalText`). */
export function textOf(content: readonly ContentBlockParam[]): string {
  return content
    .filter((block): block is Extract<ContentBlockParam, { type: 'text' }> => block.type === 'text')
    .map((block) => block.text)
    .join('');
}
