/**
 * The shape rules the Messages API enforces on `messages`, checked before anything is sent and in
 * every context-strategy test: roles alternate starting with the user (or with the compaction block
 * a compacted conversation is sent from), and every `tool_use` is
 * answered by a `tool_result` in the very next user message (and nothing else is answered).
 * Pure: no Node built-ins (the workflow sandbox imports this).
 */
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { opensWithCompaction } from './compaction';

function blocksOf(message: MessageParam): readonly ContentBlockParam[] {
  return typeof message.content === 'string' ? [] : message.content;
}

function toolUseIdsOf(message: MessageParam | undefined): string[] {
  if (message?.role !== 'assistant') return [];
  return blocksOf(message).flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
}

/** Problems of one message on its own: content present, text not blank, blocks where they may be. */
function shapeProblem(message: MessageParam, i: number, isLast: boolean): string | null {
  const at = `messages[${i}] (${message.role})`;
  const { content } = message;
  // Only a final assistant message (a prefill) may be empty.
  const emptyAllowed = isLast && message.role === 'assistant';
  if (typeof content === 'string') return content.trim() === '' && !emptyAllowed ? `${at} has empty content` : null;
  if (content.length === 0) return emptyAllowed ? null : `${at} has no content blocks`;
  let seenOther = false;
  for (const [j, block] of content.entries()) {
    if (block.type === 'text' && block.text.trim() === '') return `${at} block ${j} is an empty text block`;
    if (block.type === 'tool_use' && message.role !== 'assistant') return `${at} block ${j}: tool_use outside an assistant message`;
    if (block.type === 'tool_result') {
      if (message.role !== 'user') return `${at} block ${j}: tool_result outside a user message`;
      if (seenOther) return `${at} block ${j}: tool_result after other content (results must come first)`;
    } else seenOther = true;
  }
  return null;
}

/** Pairing of message i with its neighbours. */
function pairingProblem(messages: readonly MessageParam[], i: number): string | null {
  const message = messages[i];
  if (message === undefined) return null;
  const at = `messages[${i}] (${message.role})`;
  if (message.role === 'assistant') {
    const ids = toolUseIdsOf(message);
    if (ids.length === 0) return null;
    const next = messages[i + 1];
    const answered = new Set(
      next?.role === 'user' ? blocksOf(next).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : [],
    );
    const missing = ids.filter((id) => !answered.has(id));
    return missing.length > 0 ? `${at}: tool_use ${missing.join(', ')} has no tool_result in the next user message` : null;
  }
  const asked = new Set(toolUseIdsOf(messages[i - 1]));
  const seen = new Set<string>();
  for (const block of blocksOf(message)) {
    if (block.type !== 'tool_result') continue;
    if (!asked.has(block.tool_use_id)) {
      return `${at}: tool_result for ${block.tool_use_id} has no tool_use in the previous assistant message`;
    }
    if (seen.has(block.tool_use_id)) return `${at}: more than one tool_result for ${block.tool_use_id}`;
    seen.add(block.tool_use_id);
  }
  return null;
}

/** The first rule `messages` breaks, worded for a person, or null when it is a valid request transcript. */
export function transcriptProblem(messages: readonly MessageParam[]): string | null {
  if (messages.length === 0) return 'no messages: a request needs at least one';
  const toolUseIds = new Set<string>();
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages[${i}] has role ${String(message.role)}: only user and assistant (the system prompt is a top-level field)`;
    }
    // A compacted conversation is sent from its compaction block on, which an assistant message holds.
    if (i === 0 && message.role !== 'user' && !opensWithCompaction(messages)) return 'messages[0] must be a user message';
    const previous = messages[i - 1];
    if (previous !== undefined && previous.role === message.role) {
      return `messages[${i - 1}] and messages[${i}] are both ${message.role} messages: roles must alternate`;
    }
    const shape = shapeProblem(message, i, i === messages.length - 1);
    if (shape) return shape;
    for (const id of toolUseIdsOf(message)) {
      if (toolUseIds.has(id)) return `messages[${i}]: tool_use id ${id} is used more than once`;
      toolUseIds.add(id);
    }
    const pairing = pairingProblem(messages, i);
    if (pairing) return pairing;
  }
  return null;
}

/** Throws an `Error` naming the first rule `messages` breaks (see {@link transcriptProblem}). */
export function assertValidTranscript(messages: readonly MessageParam[]): void {
  const problem = transcriptProblem(messages);
  if (problem !== null) throw new Error(`invalid transcript: ${problem}`);
}
