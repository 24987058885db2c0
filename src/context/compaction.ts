/**
 * Server-side compaction (the Messages API's `compact_20260112` context edit, beta
 * `compact-2026-01-12`): once a request's input reaches the trigger, the API summarises the
 * conversation and answers with a `compaction` block first in the assistant's content, then goes on
 * from that summary. The workflow keeps every message, compaction blocks included, for the history,
 * the audit and replay; what is SENT starts at the latest compaction block, which the API wants as
 * the first block of the conversation (400 `compaction_block_misplaced` otherwise) and alone
 * (`compaction_block_ambiguous` for two with content). Under any other strategy the view leaves
 * compaction blocks out and sends the full history the workflow kept, which needs no beta.
 * Pure: no Node built-ins (the workflow sandbox imports this).
 */
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';

/** The beta header that compaction needs, sent only by a conversation that compacts. */
export const COMPACTION_BETA = 'compact-2026-01-12';
/** The smallest trigger the API takes (input tokens). */
export const MIN_COMPACTION_TRIGGER = 50_000;
/** The API's trigger when none is given (input tokens). */
export const DEFAULT_COMPACTION_TRIGGER = 150_000;

/** A `compaction` block as it is kept in the history (the API's `BetaCompactionBlockParam`). */
export interface CompactionBlock {
  type: 'compaction';
  /** The summary; null when the compaction failed (the API treats such a block as a no-op). */
  content?: string | null;
  encrypted_content?: string | null;
  signature?: string | null;
  tool_changes?: unknown[] | null;
}

/** Whether a block is a compaction block (the SDK's GA types do not know it: it is a beta block). */
export function isCompactionBlock(block: unknown): block is CompactionBlock {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'compaction';
}

/** A compaction block that holds a summary (a failed one, with null content, is a no-op). */
function holdsSummary(block: unknown): block is CompactionBlock {
  return isCompactionBlock(block) && typeof block.content === 'string' && block.content !== '';
}

function blocksOf(message: MessageParam): readonly ContentBlockParam[] {
  return typeof message.content === 'string' ? [] : message.content;
}

/** Where the latest compaction block with a summary is: its message and its place in that message. */
export function latestCompaction(messages: readonly MessageParam[]): { message: number; block: number } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = blocksOf(messages[i] as MessageParam);
    for (let j = blocks.length - 1; j >= 0; j--) {
      if (holdsSummary(blocks[j])) return { message: i, block: j };
    }
  }
  return undefined;
}

/** How many compaction blocks with a summary the messages hold (the status counts them). */
export function compactionCount(messages: readonly MessageParam[]): number {
  return messages.reduce((n, message) => n + blocksOf(message).filter(holdsSummary).length, 0);
}

/**
 * The view `compact` sends: from the latest compaction block on, that block first (the rest of its
 * assistant message after it). Everything when no compaction happened yet. Never mutates.
 */
export function fromLatestCompaction(messages: readonly MessageParam[]): MessageParam[] {
  const at = latestCompaction(messages);
  if (at === undefined) return withoutCompactionBlocks(messages);
  const opening = messages[at.message] as MessageParam;
  const first = at.block === 0 ? opening : ({ role: opening.role, content: blocksOf(opening).slice(at.block) } as MessageParam);
  // Failed (null) compactions after the latest good one are no-ops to the API; leave them out too.
  return [first, ...withoutCompactionBlocks(messages.slice(at.message + 1))];
}

/** A placeholder for an assistant message that held only a compaction block. */
const COMPACTED_NOTE = '[the conversation so far was compacted here]';

/**
 * The messages without any compaction block: what a strategy other than `compact` sends, the full
 * history in place of the summary. A message left empty says where the compaction was. Shares the
 * messages it does not change.
 */
export function withoutCompactionBlocks(messages: readonly MessageParam[]): MessageParam[] {
  return messages.map((message) => {
    const blocks = blocksOf(message);
    if (!blocks.some(isCompactionBlock)) return message;
    const kept = blocks.filter((block) => !isCompactionBlock(block));
    return { role: message.role, content: kept.length > 0 ? kept : [{ type: 'text', text: COMPACTED_NOTE }] } as MessageParam;
  });
}

/** Whether a request's messages open with a compaction block (then the first message may be the assistant's). */
export function opensWithCompaction(messages: readonly MessageParam[]): boolean {
  const first = messages[0];
  return first !== undefined && isCompactionBlock(blocksOf(first)[0]);
}
