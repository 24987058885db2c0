/**
 * What thinking asks of the messages sent. With thinking on, the API wants the assistant turn that
 * holds the latest set of `tool_use` / `tool_result` blocks to start with its thinking block,
 * passed back unchanged (400 "Expected `thinking` or `redacted_thinking`, but found `tool_use`").
 * The context strategies never edit an assistant message and never cut inside the current turn, so
 * a turn that began with thinking on keeps its thinking. One case is left: a turn that ended on
 * tool results (iteration limit, cancelled) while thinking was off, followed by a turn with it on:
 * the next turn's text joined those results, and the tool call before them has no thinking, which
 * no one can make up (a signature is the API's). In the view of such a turn, that one call and its
 * results are sent as text instead. Pure: no Node built-ins (the workflow sandbox imports this).
 */
import type { ContentBlockParam, MessageParam, TextBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { isCompactionBlock } from './compaction';
import { turnStarts } from './turn-boundaries';

/** A result shown as text is cut after this many characters: the call is old, the note says so. */
const RESULT_NOTE_CHARS = 2000;

/** Whether a message starts with a thinking (or redacted thinking) block, as the API wants it. */
export function leadsWithThinking(message: MessageParam | undefined): boolean {
  if (message === undefined || typeof message.content === 'string') return false;
  // After a compaction block (the summary the API put first), the turn's own blocks begin.
  const first = message.content.find((block) => !isCompactionBlock(block));
  return first?.type === 'thinking' || first?.type === 'redacted_thinking';
}

function hasToolUse(message: MessageParam | undefined): boolean {
  return message?.role === 'assistant' && typeof message.content !== 'string' && message.content.some((b) => b.type === 'tool_use');
}

function resultText(block: ToolResultBlockParam): string {
  const { content } = block;
  const text =
    content === undefined ? '' : typeof content === 'string' ? content : content.map((inner) => (inner.type === 'text' ? inner.text : `[${inner.type}]`)).join('\n');
  return text.length > RESULT_NOTE_CHARS ? `${text.slice(0, RESULT_NOTE_CHARS)}… [${text.length - RESULT_NOTE_CHARS} more chars]` : text;
}

/** The assistant message with each `tool_use` as a line of text (its other blocks as they are). */
function callsAsText(message: MessageParam, names: Map<string, string>): MessageParam {
  const blocks: ContentBlockParam[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  return {
    role: 'assistant',
    content: blocks.map((block): ContentBlockParam => {
      if (block.type !== 'tool_use') return block;
      names.set(block.id, block.name);
      return { type: 'text', text: `[called the tool ${block.name} with ${JSON.stringify(block.input)}]` };
    }),
  };
}

/** The user message with each `tool_result` as a line of text, before what the user said. */
function resultsAsText(message: MessageParam, names: Map<string, string>): MessageParam {
  if (typeof message.content === 'string') return message;
  return {
    role: 'user',
    content: message.content.map((block): ContentBlockParam => {
      if (block.type !== 'tool_result') return block;
      const name = names.get(block.tool_use_id) ?? 'the tool';
      const note: TextBlockParam = { type: 'text', text: `[result of ${name}${block.is_error === true ? ' (failed)' : ''}: ${resultText(block) || '(empty)'}]` };
      return note;
    }),
  };
}

/**
 * The messages to send with thinking on: as given, except when the current turn starts on the
 * results of a tool call that has no thinking before it; then that call and its results are text.
 * Returns `messages` itself when nothing changes (never mutates).
 */
export function withThinkingTurnStart(messages: MessageParam[]): MessageParam[] {
  const starts = turnStarts(messages);
  const start = starts[starts.length - 1];
  if (start === undefined || start === 0) return messages;
  const opening = messages[start];
  const call = messages[start - 1];
  const answersCall = opening !== undefined && typeof opening.content !== 'string' && opening.content.some((b) => b.type === 'tool_result');
  if (!answersCall || call === undefined || !hasToolUse(call) || leadsWithThinking(call)) return messages;
  const names = new Map<string, string>();
  const out = [...messages];
  out[start - 1] = callsAsText(call, names);
  out[start] = resultsAsText(opening, names);
  return out;
}
