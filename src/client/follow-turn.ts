/**
 * A user turn sent while following its conversation (`mcp-host chat`, `send` on a terminal,
 * `ConversationClient.send` with `onProgress`): the follower starts before the send, so it sees
 * the turn from its first call, and stops once it has seen the turn's end, so nothing of the turn
 * is cut off. The turn's result is the send's own (the update's result), as without following.
 */
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ConversationEvent } from './conversation-events';
import { followConversation, type FollowOptions } from './follow-conversation';

/**
 * After the send returned, how long the follower may take to read the turn's end from the history
 * (one long poll, usually milliseconds); a turn answered from the conversation's store of recent
 * results (a repeated message id) records no new end and waits this long.
 */
const CATCH_UP_MS = 2_000;

/**
 * Runs `send` (which must send the turn with update id `messageId`) while following conversation
 * `workflowId`; `onEvent` sees the progress until the turn's end.
 */
export async function sendFollowing<T>(
  client: Client,
  workflowId: string,
  messageId: string,
  onEvent: (event: ConversationEvent) => void,
  send: () => Promise<T>,
  options: Pick<FollowOptions, 'pollMs' | 'keepAlive' | 'live'> & { catchUpMs?: number } = {},
): Promise<T> {
  const seenEnd = new AbortController();
  const follower = followConversation(
    client,
    workflowId,
    (event) => {
      onEvent(event);
      if (event.type === 'turn_finished' && event.messageId === messageId) seenEnd.abort();
    },
    {
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      ...(options.keepAlive !== undefined ? { keepAlive: options.keepAlive } : {}),
      ...(options.live !== undefined ? { live: options.live } : {}),
    },
  );
  try {
    const result = await send();
    await sleep(options.catchUpMs ?? CATCH_UP_MS, undefined, { signal: seenEnd.signal }).catch(() => undefined);
    return result;
  } finally {
    await follower.stop();
  }
}
