import type { WorkflowHandle } from '@temporalio/client';
import type { MessageParam } from '../conversation/types';
import { messagesSliceQuery } from '../workflows/definitions';

/** Messages read per query: a page of a long transcript, each under the limits of one query answer. */
export const HISTORY_PAGE_MESSAGES = 64;

/**
 * A conversation's whole `messages` array, read page by page with the `messagesSlice` query rather
 * than in one `messages` answer: a transcript of many images runs to megabytes, and one answer of
 * that size would be kept whole in the worker, the server and the client at once. Stops at the
 * first short page (the transcript only grows, so a page read later can only be longer).
 */
export async function readHistory(handle: WorkflowHandle, pageSize: number = HISTORY_PAGE_MESSAGES): Promise<MessageParam[]> {
  const messages: MessageParam[] = [];
  for (;;) {
    const page = await handle.query(messagesSliceQuery, messages.length, messages.length + pageSize);
    messages.push(...page);
    if (page.length < pageSize) return messages;
  }
}
