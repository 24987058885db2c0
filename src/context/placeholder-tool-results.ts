/**
 * The `placeholder_tool_results` view: tool results of older turns shrink to a one-line note,
 * everything else is sent as stored. Pure: no Node built-ins (the workflow sandbox imports this).
 */
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { recentTurnsStart } from './turn-boundaries';

/** The names of the tools called in these messages, by `tool_use` id. */
function toolNamesById(messages: readonly MessageParam[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') names.set(block.id, block.name);
    }
  }
  return names;
}

/** The note that replaces a result, or null when the result is no bigger than the note would be. */
function placeholderFor(block: ToolResultBlockParam, toolName: string): string | null {
  const { content } = block;
  if (content === undefined) return null;
  let chars = 0;
  let others = 0;
  if (typeof content === 'string') chars = content.length;
  else {
    for (const inner of content) {
      if (inner.type === 'text') chars += inner.text.length;
      else others += 1;
    }
  }
  const extra = others > 0 ? ` and ${others} non-text block(s)` : '';
  const note = `[tool result of ${toolName} omitted: ${chars} chars${extra}]`;
  // A short result (e.g. "北京今天晴，25°C") costs less than its note and is what lets Claude resolve
  // a follow-up such as "那上海呢": keep it. Images and documents are never short.
  return others > 0 || chars > note.length ? note : null;
}

/**
 * The history with every `tool_result` that answers a call made before the last
 * `keepRecentTurns` turns replaced by `[tool result of <name> omitted: N chars]`. `tool_use_id` and
 * `is_error` stay, so pairing is untouched; the stored messages are not modified.
 */
export function withPlaceholderToolResults(messages: readonly MessageParam[], keepRecentTurns: number): MessageParam[] {
  const cut = recentTurnsStart(messages, keepRecentTurns);
  if (cut === 0) return [...messages];
  const names = toolNamesById(messages.slice(0, cut));
  // Message `cut` is included: its leading results answer the call of message `cut - 1`, an older turn.
  return messages.map((message, i) => {
    if (i > cut || message.role !== 'user' || typeof message.content === 'string') return message;
    let changed = false;
    const content = message.content.map((block): ContentBlockParam => {
      if (block.type !== 'tool_result') return block;
      const note = placeholderFor(block, names.get(block.tool_use_id) ?? 'an unknown tool');
      if (note === null) return block;
      changed = true;
      return { ...block, content: note };
    });
    return changed ? { role: 'user', content } : message;
  });
}
