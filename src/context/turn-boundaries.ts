/**
 * Where turns begin in a `messages` array. Every context strategy cuts or rewrites at these
 * boundaries only, which is what keeps a `tool_use` and its `tool_result` on the same side of a cut.
 * Pure: no Node built-ins (the workflow sandbox imports this).
 */
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * A user message that starts a turn: something the user said (string content, or any block other
 * than a `tool_result`), as opposed to a message that only carries tool results. A turn that ended
 * on tool results (iteration limit) has the next turn's text merged into that message; it still
 * starts the next turn, and its leading `tool_result` blocks belong to the turn before.
 */
export function isTurnStart(message: MessageParam | undefined): boolean {
  if (message?.role !== 'user') return false;
  if (typeof message.content === 'string') return true;
  return message.content.some((block) => block.type !== 'tool_result');
}

/** Indexes of the messages that start a turn, in order. */
export function turnStarts(messages: readonly MessageParam[]): number[] {
  const starts: number[] = [];
  messages.forEach((message, i) => {
    if (isTurnStart(message)) starts.push(i);
  });
  return starts;
}

/** A turn count from configuration: at least 1 (a request needs the current turn); NaN counts as 1. */
export function turnCount(turns: number): number {
  return Number.isNaN(turns) ? 1 : Math.max(1, Math.floor(turns));
}

/**
 * The index where the last `turns` turns begin, or 0 when the array holds no more turns than that
 * (nothing to cut). A non-zero result is always a turn start.
 */
export function recentTurnsStart(messages: readonly MessageParam[], turns: number): number {
  const starts = turnStarts(messages);
  const keep = turnCount(turns);
  if (starts.length <= keep) return 0;
  return starts[starts.length - keep] ?? 0;
}

/** The `tool_result` blocks of a message (none for string content or an assistant message). */
export function toolResultsOf(message: MessageParam): ToolResultBlockParam[] {
  if (message.role !== 'user' || typeof message.content === 'string') return [];
  return message.content.filter((block): block is ToolResultBlockParam => block.type === 'tool_result');
}

/**
 * A turn-start message without its leading `tool_result` blocks: used when the `tool_use` they
 * answer is cut away, so that no result is left without its call. Returns the message itself
 * when there is nothing to drop (never mutates).
 */
export function withoutToolResults(message: MessageParam): MessageParam {
  if (message.role !== 'user' || typeof message.content === 'string') return message;
  const kept = message.content.filter((block) => block.type !== 'tool_result');
  return kept.length === message.content.length ? message : { role: 'user', content: kept };
}
