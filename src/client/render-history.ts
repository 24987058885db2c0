import { isCompactionBlock } from '../context/compaction';
import type { ContentBlockParam, MessageParam } from '../conversation/types';

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function renderBlock(block: ContentBlockParam): string {
  // A server-side compaction (a beta block): what came before it is what the summary replaced.
  const compaction: unknown = block;
  if (isCompactionBlock(compaction)) {
    return typeof compaction.content === 'string' ? `  [compaction: the API summarised what comes above] ${oneLine(compaction.content)}` : '  [compaction failed: no summary]';
  }
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_use':
      return `  → tool_use ${block.name} ${JSON.stringify(block.input)} (${block.id})`;
    case 'tool_result': {
      const content =
        typeof block.content === 'string'
          ? block.content
          : (block.content ?? []).map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ');
      return `  ← tool_result${block.is_error ? ' [error]' : ''} (${block.tool_use_id}): ${oneLine(content)}`;
    }
    case 'server_tool_use':
      // Run by the API inside the call, not by the host.
      return `  → server_tool_use ${block.name} ${JSON.stringify(block.input)} (${block.id})`;
    default:
      // A server tool's result (web_search_tool_result…) names the call it answers.
      return 'tool_use_id' in block ? `  ← ${block.type} (${block.tool_use_id})` : `  [${block.type}]`;
  }
}

/** A human-readable transcript: one line per text or tool block, roles marked. */
export function renderHistory(messages: readonly MessageParam[]): string {
  return messages
    .map((message) => {
      const body = typeof message.content === 'string' ? message.content : message.content.map(renderBlock).join('\n');
      return `${message.role}: ${body}`;
    })
    .join('\n');
}
