/**
 * The API's server-side context management, emulated by the fake Messages API (issue 29): the
 * request fields (`context_management.edits` with `compact_20260112` or `clear_tool_uses_20250919`)
 * and their beta headers are checked as the real API checks them, compaction blocks sent back are
 * checked where they stand (first, alone, unchanged: the API's 400s with their `error_code`), and
 * an answer to a request whose input reaches a trigger gets what the real API would add:
 * - compaction: a signed `compaction` block first in the content, summarising the messages sent,
 *   and the compaction's own usage as a `compaction` entry of `usage.iterations` (the top-level
 *   usage then counts the compacted context only);
 * - clearing tool uses: `context_management.applied_edits` saying how many tool uses were cleared,
 *   and a smaller `input_tokens`.
 * The fake estimates tokens as the rest of it does: about 4 bytes a token.
 */
import { createHash } from 'node:crypto';
import { estimateTokens } from './message-body';
import type { MessageAnswer } from './messages-api-answer';

type Json = Record<string, unknown>;

const COMPACT_BETA = 'compact-2026-01-12';
const EDITING_BETA = 'context-management-2025-06-27';
const MIN_COMPACT_TRIGGER = 50_000;
const DEFAULT_COMPACT_TRIGGER = 150_000;
const DEFAULT_CLEAR_TRIGGER = 100_000;
/** Starts every compaction signature the fake makes (one without it is a script's: not checked). */
const SIGNATURE_PREFIX = 'fake-compaction-sig.v1.';
/** A summary quotes at most this many characters of each user message. */
const QUOTE_CHARS = 80;

/** A refusal: the API's 400 text, and the `error_code` its details carry where it has one. */
export interface ContextProblem {
  message: string;
  errorCode?: string;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blocksOf(message: unknown): unknown[] {
  return isRecord(message) && Array.isArray(message.content) ? message.content : [];
}

/** The fake's signature of a compaction summary. */
export function signCompaction(summary: string): string {
  return `${SIGNATURE_PREFIX}${createHash('sha256').update(summary, 'utf8').digest('base64url')}`;
}

/** The beta names of a request's `anthropic-beta` header. */
export function betasOf(headers: Record<string, string>): Set<string> {
  return new Set((headers['anthropic-beta'] ?? '').split(',').map((beta) => beta.trim()).filter((beta) => beta !== ''));
}

function editsOf(body: Json): Json[] {
  const management = body.context_management;
  return isRecord(management) && Array.isArray(management.edits) ? management.edits.filter(isRecord) : [];
}

function triggerProblem(trigger: unknown, path: string, min: number): string | null {
  if (trigger === undefined || trigger === null) return null;
  if (!isRecord(trigger) || trigger.type !== 'input_tokens') return `${path}.type: Input should be 'input_tokens'`;
  const { value } = trigger;
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${path}.value: Input should be a valid integer`;
  return value < min ? `${path}.value: Input should be greater than or equal to ${min}` : null;
}

/** The request's `context_management`, checked against the beta headers it came with. */
function editsProblem(body: Json, betas: Set<string>): string | null {
  const management = body.context_management;
  if (management === undefined) return null;
  if (!isRecord(management) || (management.edits !== undefined && !Array.isArray(management.edits))) {
    return 'context_management.edits: Input should be a valid list';
  }
  for (const [i, edit] of ((management.edits as unknown[] | undefined) ?? []).entries()) {
    const path = `context_management.edits.${i}`;
    if (!isRecord(edit)) return `${path}: Input should be a valid dictionary`;
    if (edit.type === 'compact_20260112') {
      if (!betas.has(COMPACT_BETA)) return `${path}.type: 'compact_20260112' needs the beta header \`anthropic-beta: ${COMPACT_BETA}\``;
      const problem = triggerProblem(edit.trigger, `${path}.trigger`, MIN_COMPACT_TRIGGER);
      if (problem) return problem;
    } else if (edit.type === 'clear_tool_uses_20250919') {
      if (!betas.has(EDITING_BETA)) return `${path}.type: 'clear_tool_uses_20250919' needs the beta header \`anthropic-beta: ${EDITING_BETA}\``;
      const problem = triggerProblem(edit.trigger, `${path}.trigger`, 1);
      if (problem) return problem;
      const keep = edit.keep;
      if (keep !== undefined && (!isRecord(keep) || keep.type !== 'tool_uses' || typeof keep.value !== 'number' || keep.value < 0)) {
        return `${path}.keep: Input should be {"type": "tool_uses", "value": N} with N ≥ 0`;
      }
    } else {
      return `${path}.type: Input should be 'clear_tool_uses_20250919', 'clear_thinking_20251015' or 'compact_20260112'`;
    }
  }
  return null;
}

/** Compaction blocks sent back: only with the beta, one with content, first in the conversation, unchanged. */
function blocksProblem(messages: unknown[], betas: Set<string>): ContextProblem | null {
  const found = messages.flatMap((message, i) =>
    blocksOf(message).flatMap((block, j) => (isRecord(block) && block.type === 'compaction' ? [{ block, i, j, path: `messages.${i}.content.${j}` }] : [])),
  );
  if (found.length === 0) return null;
  if (!betas.has(COMPACT_BETA)) return { message: `${found[0]!.path}: \`compaction\` blocks need the beta header \`anthropic-beta: ${COMPACT_BETA}\`` };
  if (found.filter(({ block }) => typeof block.content === 'string').length > 1) {
    return { message: 'messages: more than one `compaction` block with content; send only the block the conversation returned last', errorCode: 'compaction_block_ambiguous' };
  }
  for (const { block, i, j, path } of found) {
    if (i !== 0 || j !== 0) {
      return { message: `${path}: the \`compaction\` block must be the first block of the conversation`, errorCode: 'compaction_block_misplaced' };
    }
    const { signature, content } = block;
    if (typeof content === 'string' && typeof signature === 'string' && signature.startsWith(SIGNATURE_PREFIX) && signature !== signCompaction(content)) {
      return { message: `${path}.content: the \`compaction\` block's content differs from the text its signature recorded`, errorCode: 'compaction_content_mismatch' };
    }
  }
  return null;
}

/** Why the real API would refuse this request's context management, or null. */
export function contextManagementProblem(body: unknown, headers: Record<string, string>): ContextProblem | null {
  if (!isRecord(body)) return null;
  const betas = betasOf(headers);
  const edits = editsProblem(body, betas);
  if (edits) return { message: edits };
  return blocksProblem(Array.isArray(body.messages) ? body.messages : [], betas);
}

/** The fake's token count of a value: its JSON's bytes, as every other count of the fake. */
function tokensOf(value: unknown): number {
  return estimateTokens(Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8'));
}

function triggerOf(edit: Json, fallback: number): number {
  return isRecord(edit.trigger) && typeof edit.trigger.value === 'number' ? edit.trigger.value : fallback;
}

/** What a user message said, for the summary: its text, or what it carried. */
function userWords(message: Json): string {
  if (typeof message.content === 'string') return message.content;
  return blocksOf(message)
    .map((block) => (isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : isRecord(block) ? `[${String(block.type)}]` : ''))
    .join(' ');
}

/** The fake's summary of the messages a compaction replaces: deterministic, and says what it is. */
function summaryOf(messages: Json[]): string {
  const said = messages.filter((m) => m.role === 'user').map(userWords).filter((text) => !/^\[tool_result\]( \[tool_result\])*$/.test(text.trim()));
  const quotes = said.map((text) => {
    const flat = text.replace(/\s+/g, ' ').trim();
    return `- ${flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat}`;
  });
  return [`Summary (fake Messages API compaction) of ${messages.length} messages. The user said:`, ...quotes].join('\n');
}

/** A compaction block first in the answer, and its usage, when the request reached its trigger. */
function compacted(answer: MessageAnswer, messages: Json[], edit: Json): MessageAnswer {
  const before = tokensOf(messages);
  if (before < triggerOf(edit, DEFAULT_COMPACT_TRIGGER)) return answer;
  const summary = summaryOf(messages);
  // The summary covers every message sent, the last one too: the answer goes on from it alone.
  const after = tokensOf(summary);
  const compaction = { type: 'compaction' as const, content: summary, encrypted_content: null, signature: signCompaction(summary) };
  const iterations = [
    { type: 'compaction', input_tokens: before, output_tokens: tokensOf(summary), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: null },
    { type: 'message', input_tokens: after, output_tokens: answer.usage?.output_tokens ?? tokensOf(answer.content), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: null },
  ];
  return {
    ...answer,
    content: [compaction, ...answer.content],
    usage: { ...answer.usage, input_tokens: after, iterations } as MessageAnswer['usage'],
  };
}

/** The tool uses cleared and the tokens saved, when the request reached the clearing trigger. */
function cleared(answer: MessageAnswer, messages: Json[], edit: Json): MessageAnswer {
  const before = tokensOf(messages);
  if (before < triggerOf(edit, DEFAULT_CLEAR_TRIGGER)) return answer;
  const keep = isRecord(edit.keep) && typeof edit.keep.value === 'number' ? edit.keep.value : 3;
  const results = messages.flatMap((m) => blocksOf(m).filter((b) => isRecord(b) && b.type === 'tool_result'));
  const clearedResults = results.slice(0, Math.max(0, results.length - keep));
  if (clearedResults.length === 0) return answer;
  const saved = Math.min(before - 1, tokensOf(clearedResults));
  return {
    ...answer,
    usage: { ...answer.usage, input_tokens: before - saved },
    contextManagement: { applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: clearedResults.length, cleared_input_tokens: saved }] },
  };
}

/** The answer as the API's context management would leave it (unchanged when the request asks for none). */
export function withContextManagement(answer: MessageAnswer, request: unknown): MessageAnswer {
  if (!isRecord(request)) return answer;
  const messages = Array.isArray(request.messages) ? request.messages.filter(isRecord) : [];
  let out = answer;
  for (const edit of editsOf(request)) {
    if (edit.type === 'compact_20260112') out = compacted(out, messages, edit);
    if (edit.type === 'clear_tool_uses_20250919') out = cleared(out, messages, edit);
  }
  return out;
}
