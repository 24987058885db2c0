/**
 * A follower's side of the live channel (`src/client/follow-conversation.ts` runs it beside the
 * history and the describe poll): it marks itself present for as long as it follows, catches up
 * from the stream's retained tail (the entries of the calls running when it joined), then reads
 * each new entry as the worker adds it (a blocking read on a connection of its own).
 *
 * Entries go to `onEntry` in the stream's order; the caller merges them with the heartbeats'
 * windows by offset, so that whichever source comes first, each character shows once. A read that
 * fails (Redis away for a while) is tried again from the last entry read, so a reconnection loses
 * nothing the stream still holds.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveFollowing } from './live-channel';
import type { LiveEntry } from './live-entry';
import { PRESENCE_REFRESH_MS } from './redis-live-channel';

/** How long one blocking read waits for an entry before it asks again. */
const BLOCK_MS = 5000;
/** The pause before trying again after a failure. */
const RETRY_MS = 500;

/** How to follow a conversation's live stream. */
export interface FollowLiveOptions {
  /** Ends following. */
  signal: AbortSignal;
  /** Whether the presence timer and the pauses keep the process running. */
  keepAlive: boolean;
  /**
   * Which entries of the retained tail belong to calls running now; asked once, after the tail is
   * read (entries of calls that ended before the follower joined are not shown). Never rejects.
   */
  running: () => Promise<(entry: LiveEntry) => boolean>;
  /** Each entry, in order. */
  onEntry: (entry: LiveEntry) => void;
}

/** `promise`'s value, or undefined as soon as `signal` aborts (a broker that does not answer never holds a stop up). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const abort = (): void => resolve(undefined);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** Follows conversation `workflowId` on `channel` until `signal` aborts; never rejects. */
export async function followLive(channel: LiveFollowing, workflowId: string, options: FollowLiveOptions): Promise<void> {
  const { signal, keepAlive, onEntry } = options;
  if (signal.aborted) return;
  const pause = (): Promise<unknown> => sleep(RETRY_MS, undefined, { signal, ref: keepAlive }).catch(() => undefined);
  const mark = (): Promise<void> => channel.markFollowing(workflowId).catch(() => undefined);
  const presence = setInterval(() => void mark(), PRESENCE_REFRESH_MS);
  if (!keepAlive) presence.unref();
  const reader = channel.reader();
  const close = (): void => reader.close();
  signal.addEventListener('abort', close);
  try {
    // Present first: the worker publishes from now on (within its cache's second).
    await unlessAborted(mark(), signal);
    let lastId: string | undefined;
    while (lastId === undefined && !signal.aborted) {
      try {
        const tail = await unlessAborted(channel.tail(workflowId), signal);
        const running = tail && (await options.running());
        if (!tail || !running || signal.aborted) return;
        for (const entry of tail.entries) if (running(entry)) onEntry(entry);
        lastId = tail.lastId;
      } catch {
        await pause();
      }
    }
    while (lastId !== undefined && !signal.aborted) {
      try {
        const read = await unlessAborted(reader.read(workflowId, lastId, BLOCK_MS), signal);
        if (!read || signal.aborted) return;
        read.entries.forEach(onEntry);
        lastId = read.lastId;
      } catch {
        if (!signal.aborted) await pause();
      }
    }
  } finally {
    clearInterval(presence);
    signal.removeEventListener('abort', close);
    reader.close();
  }
}
