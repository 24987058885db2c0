/**
 * Which messages a new summary must cover, and when one is due (`summarize` strategy). The
 * summarising activity calls `splitForSummary`; the workflow calls `summaryDue` to decide whether
 * to schedule it. Pure: no Node built-ins (the workflow sandbox imports this).
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { summaryApplies, type ContextSummary } from './context-summary';
import { recentTurnsStart, toolResultsOf, turnCount, turnStarts, withoutToolResults } from './turn-boundaries';

/** The history split for a summary. */
export interface SummarySplit {
  /**
   * The messages the new summary must add to the previous one: a valid transcript on its own
   * (starts with what a user said, ends with the tool results of its last call, if any).
   */
  older: MessageParam[];
  /** The view of the recent turns that stays verbatim (as `last_turns` would send it). */
  recent: MessageParam[];
  /** What the new summary covers: its `coveredMessages` (0 when there is nothing new to summarise). */
  coveredMessages: number;
}

/** Where the part not yet covered by `previous` begins (0 without a usable previous summary). */
function uncoveredFrom(messages: readonly MessageParam[], previous: ContextSummary | undefined): number {
  return summaryApplies(messages, previous) ? previous.coveredMessages : 0;
}

/**
 * Splits the stored history into the turns to summarise and the last `keepRecentTurns` turns.
 * With `previous`, `older` holds only what that summary does not cover yet (the summariser gets
 * the previous summary's text and these messages). The results that open the first recent turn
 * answer a call in `older`, so they are moved there: both halves keep every pairing.
 */
export function splitForSummary(
  messages: readonly MessageParam[],
  keepRecentTurns: number,
  previous?: ContextSummary,
): SummarySplit {
  const cut = recentTurnsStart(messages, keepRecentTurns);
  const first = messages[cut];
  const from = uncoveredFrom(messages, previous);
  if (cut === 0 || first === undefined) return { older: [], recent: [...messages], coveredMessages: 0 };
  const recent = [withoutToolResults(first), ...messages.slice(cut + 1)];
  if (from >= cut) return { older: [], recent, coveredMessages: 0 };
  const older = messages.slice(from, cut);
  const head = older[0];
  // The previous summary covered the leading results of messages[from]; they are not repeated.
  if (from > 0 && head !== undefined) older[0] = withoutToolResults(head);
  const results = toolResultsOf(first);
  if (results.length > 0) older.push({ role: 'user', content: results });
  return { older, recent, coveredMessages: cut };
}

/**
 * Whether the workflow should run the summariser before the next Claude call. Summaries are
 * written in batches: due once at least `keepRecentTurns` whole turns have aged out of the recent
 * window and are not yet covered (so one summariser call per `keepRecentTurns` turns, not one per
 * turn). `force` (the context guard tripped, or Claude stopped at the context window) makes any
 * uncovered older turn enough.
 */
export function summaryDue(
  messages: readonly MessageParam[],
  keepRecentTurns: number,
  previous: ContextSummary | undefined,
  options: { force?: boolean } = {},
): boolean {
  const cut = recentTurnsStart(messages, keepRecentTurns);
  const from = uncoveredFrom(messages, previous);
  if (cut === 0 || from >= cut) return false;
  const aged = turnStarts(messages).filter((start) => start >= from && start < cut).length;
  return options.force === true ? aged >= 1 : aged >= turnCount(keepRecentTurns);
}
