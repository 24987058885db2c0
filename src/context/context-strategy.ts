/**
 * What part of the stored history is sent to Claude (seed §7.3, S16). The workflow keeps the full
 * history, untouched and queryable; a strategy only shapes the view of one request. Whatever the
 * strategy, the view keeps every `tool_use` next to its `tool_result`, starts with a user message
 * and alternates roles. Pure: no Node built-ins (the workflow sandbox imports this).
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { fromLatestCompaction, withoutCompactionBlocks } from './compaction';
import { summaryApplies, summaryMessage, type ContextSummary } from './context-summary';
import { withPlaceholderToolResults } from './placeholder-tool-results';
import { recentTurnsStart, withoutToolResults } from './turn-boundaries';

/**
 * A conversation's context strategy; plain data, so it can live in workflow options and history.
 * - `keep_all`: send everything (the seed's behaviour; the default).
 * - `last_turns`: send only the last `turns` turns (older turns are dropped whole).
 * - `placeholder_tool_results`: send every turn, but tool results older than the last
 *   `keepRecentTurns` turns become a one-line note.
 * - `summarize`: older turns are replaced by a summary written by a Claude call (an activity);
 *   until one exists, everything is sent.
 * - `compact`: the API compacts on its side once the input reaches `triggerTokens` (its default
 *   when absent) and answers with a compaction block; requests start at the latest one
 *   (src/context/compaction.ts). Beta.
 * - `clear_tool_uses`: everything is sent; the API clears the oldest tool results on its side once
 *   the input reaches `triggerTokens`, keeping the last `keepToolUses` tool uses
 *   (src/context/context-editing.ts). Beta.
 */
export type ContextStrategy =
  | { kind: 'keep_all' }
  | { kind: 'last_turns'; turns: number }
  | { kind: 'placeholder_tool_results'; keepRecentTurns: number }
  | { kind: 'summarize'; keepRecentTurns: number }
  | { kind: 'compact'; triggerTokens?: number }
  | { kind: 'clear_tool_uses'; keepToolUses: number; triggerTokens?: number };

/** The strategy of a conversation that configures none. */
export const DEFAULT_CONTEXT_STRATEGY: ContextStrategy = { kind: 'keep_all' };

/** The last `turns` turns; a first message that opens with results of a dropped call loses those results. */
function lastTurns(messages: readonly MessageParam[], turns: number): MessageParam[] {
  const cut = recentTurnsStart(messages, turns);
  const first = messages[cut];
  if (cut === 0 || first === undefined) return [...messages];
  return [withoutToolResults(first), ...messages.slice(cut + 1)];
}

/** The summary in place of the messages it covers; everything when there is no usable summary. */
function summarized(messages: readonly MessageParam[], summary: ContextSummary | undefined): MessageParam[] {
  if (!summaryApplies(messages, summary)) return [...messages];
  const first = messages[summary.coveredMessages];
  if (first === undefined) return [...messages];
  return [summaryMessage(summary.text, first), ...messages.slice(summary.coveredMessages + 1)];
}

/**
 * The messages to SEND for this strategy. Never mutates `messages` and never returns a message
 * object it changed in place: unchanged messages are shared, changed ones are new objects.
 * `summary` is only read by `summarize` (see `splitForSummary` for how one is made). Compaction
 * blocks (from a time the conversation compacted) go only with `compact`: every other strategy
 * sends the full history in their place.
 */
export function applyContextStrategy(
  messages: readonly MessageParam[],
  strategy: ContextStrategy,
  summary?: ContextSummary,
): MessageParam[] {
  if (strategy.kind === 'compact') return fromLatestCompaction(messages);
  return viewOf(withoutCompactionBlocks(messages), strategy, summary);
}

function viewOf(messages: readonly MessageParam[], strategy: Exclude<ContextStrategy, { kind: 'compact' }>, summary: ContextSummary | undefined): MessageParam[] {
  switch (strategy.kind) {
    case 'clear_tool_uses':
      return [...messages];
    case 'keep_all':
      return [...messages];
    case 'last_turns':
      return lastTurns(messages, strategy.turns);
    case 'placeholder_tool_results':
      return withPlaceholderToolResults(messages, strategy.keepRecentTurns);
    case 'summarize':
      return summarized(messages, summary);
    default: {
      const unknown: never = strategy;
      throw new Error(`unknown context strategy ${JSON.stringify(unknown)}`);
    }
  }
}
