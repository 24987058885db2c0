/**
 * The summary that stands in for older turns under the `summarize` strategy. It records how many
 * stored messages it covers, so the view sent to Claude is always "summary + every message after
 * it": turns that aged out after the summary was written are still sent until the next summary.
 * Pure: no Node built-ins (the workflow sandbox imports this).
 */
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { isTurnStart, withoutToolResults } from './turn-boundaries';

/** A summary of `messages[0, coveredMessages)` (plus the leading tool results of `messages[coveredMessages]`). */
export interface ContextSummary {
  text: string;
  /** Index of the first message it does not cover; always a turn start of the stored history. */
  coveredMessages: number;
}

/** The first line of the message that carries a summary, so Claude (and a reader of the request) knows what it is. */
export const SUMMARY_HEADER = '[Summary of the earlier conversation]';

/**
 * Whether a summary can stand in for the start of this history: non-blank, and covering a prefix
 * that ends where a turn begins. A summary that does not fit (a stale or foreign one) is ignored
 * rather than risk sending a history with a hole in it.
 */
export function summaryApplies(messages: readonly MessageParam[], summary: ContextSummary | undefined): summary is ContextSummary {
  if (!summary || summary.text.trim() === '') return false;
  const covered = summary.coveredMessages;
  return Number.isInteger(covered) && covered > 0 && covered < messages.length && isTurnStart(messages[covered]);
}

/**
 * The user message that opens the view: the summary, then what the user said in the first kept
 * turn (its leading tool results answer a call the summary replaced, so they go). One message,
 * so user and assistant still alternate.
 */
export function summaryMessage(summaryText: string, firstKept: MessageParam): MessageParam {
  const kept = withoutToolResults(firstKept);
  const blocks: ContentBlockParam[] =
    typeof kept.content === 'string' ? [{ type: 'text', text: kept.content }] : [...kept.content];
  return { role: 'user', content: [{ type: 'text', text: `${SUMMARY_HEADER}\n${summaryText.trim()}` }, ...blocks] };
}
