/**
 * The request the summarising activity sends to Claude: the older turns rendered as plain text
 * (no `tool_use` / `tool_result` blocks, so the request needs no tools and cannot break pairing),
 * with instructions to keep what later turns may refer back to. Pure: no Node built-ins.
 */
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';

/** A tool result longer than this is cut in the prompt: the summariser's own context is finite. */
const MAX_RESULT_CHARS = 4000;

function clipped(text: string): string {
  return text.length <= MAX_RESULT_CHARS ? text : `${text.slice(0, MAX_RESULT_CHARS)}… [${text.length - MAX_RESULT_CHARS} more chars]`;
}

function resultText(content: Extract<ContentBlockParam, { type: 'tool_result' }>['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((inner) => (inner.type === 'text' ? inner.text : `[${inner.type}]`)).join('\n');
}

function renderMessage(message: MessageParam, toolNames: Map<string, string>): string[] {
  const who = message.role === 'assistant' ? 'Assistant' : message.role === 'user' ? 'User' : 'System';
  if (typeof message.content === 'string') return [`${who}: ${message.content}`];
  const lines: string[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'text':
        lines.push(`${who}: ${block.text}`);
        break;
      case 'tool_use':
        toolNames.set(block.id, block.name);
        lines.push(`Assistant called tool ${block.name} with ${JSON.stringify(block.input)}`);
        break;
      case 'tool_result': {
        const name = toolNames.get(block.tool_use_id) ?? 'a tool';
        const failed = block.is_error === true ? ' (the call failed)' : '';
        lines.push(`Result of ${name}${failed}: ${clipped(resultText(block.content))}`);
        break;
      }
      case 'thinking':
      case 'redacted_thinking':
        // Private reasoning: not part of what was said, and redacted blocks are unreadable anyway.
        break;
      default:
        lines.push(...otherBlockLines(who, block as unknown as Record<string, unknown>));
    }
  }
  return lines;
}

/** Text of a server tool's result (search results' titles and URLs, a fetched page's text, code's output). */
function serverResultText(content: unknown): string {
  if (Array.isArray(content)) {
    return content.map((item) => (typeof item === 'object' && item !== null ? [(item as { title?: unknown }).title, (item as { url?: unknown }).url].filter((v) => typeof v === 'string').join(' ') : '')).join('; ');
  }
  if (typeof content !== 'object' || content === null) return '';
  const inner = content as { stdout?: unknown; stderr?: unknown; url?: unknown; content?: unknown; error_code?: unknown };
  if (typeof inner.error_code === 'string') return `error ${inner.error_code}`;
  const parts = [inner.url, inner.stdout, inner.stderr].filter((v): v is string => typeof v === 'string' && v !== '');
  const document = inner.content as { source?: { data?: unknown } } | undefined;
  if (typeof document?.source?.data === 'string') parts.push(document.source.data);
  return parts.join('\n');
}

/**
 * Blocks beyond text and tools, as the summariser should read them: a server tool's call and result
 * (web search, web fetch, code execution, tool search) in words, a compaction's summary as what came
 * before; anything else named by its type.
 */
function otherBlockLines(who: string, block: Record<string, unknown>): string[] {
  const type = String(block.type);
  if (type === 'server_tool_use') return [`Assistant used the server tool ${String(block.name)} with ${JSON.stringify(block.input)}`];
  if (type === 'compaction') return typeof block.content === 'string' ? [`Summary of what came before: ${clipped(block.content)}`] : [];
  if (type.endsWith('_tool_result')) return [`Result of ${type.replace(/_tool_result$/, '')}: ${clipped(serverResultText(block.content))}`];
  return [`${who}: [${type}]`];
}

/**
 * The text the summariser sends as its one user message. `previousSummary` (the summary being
 * extended) comes first, then the transcript of `older`.
 */
export function summaryPrompt(older: readonly MessageParam[], previousSummary?: string): string {
  const toolNames = new Map<string, string>();
  const transcript = older.flatMap((message) => renderMessage(message, toolNames)).join('\n');
  const previous =
    previousSummary !== undefined && previousSummary.trim() !== ''
      ? `<previous_summary>\n${previousSummary.trim()}\n</previous_summary>\n\n`
      : '';
  return [
    'Summarise the earlier part of a conversation between a user and an assistant that uses tools.',
    'The summary replaces these messages in the assistant\'s context, so keep everything a later turn may rely on:',
    '- facts, preferences and requests the user stated;',
    '- every tool the assistant called, with its arguments, and what the result said (names, numbers, dates, errors);',
    '- the answers the assistant gave and anything left open;',
    '- what each exchange was about, so a short follow-up can be resolved (after "北京今天天气怎么样" answered by a',
    '  weather tool, "那上海呢" means "and the weather in Shanghai?").',
    'Extend the previous summary if there is one. Write in the language of the conversation. Reply with the summary only.',
    '',
    `${previous}<conversation>\n${transcript}\n</conversation>`,
  ].join('\n');
}
