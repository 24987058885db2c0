/**
 * The live channel: a broker beside Temporal through which a worker hands each piece of a streaming
 * answer to the conversation's followers at once, off the history (the heartbeats stay, for
 * failover and for followers without the broker). This is what both sides need of it; Redis
 * Streams implement it (`src/live/redis-live-channel.ts`).
 *
 * "No cost where nobody listens": followers mark themselves present (a key that expires unless
 * refreshed), and the worker publishes only while someone is.
 */
import type { LiveEntry } from './live-entry';

/** Entries read from a conversation's stream, with the id to read on from. */
export interface LiveRead {
  entries: LiveEntry[];
  /** The id of the last entry read (or the one given, when none came): read on after it. */
  lastId: string;
}

/** A follower's own connection for blocking reads (one per follower: a blocked read holds its connection). */
export interface LiveReader {
  /** The entries after `afterId` (`0-0`: from the start), waiting up to `blockMs` for one. */
  read(workflowId: string, afterId: string, blockMs: number): Promise<LiveRead>;
  /** Ends the connection; a read in progress rejects. */
  close(): void;
}

/** What the worker's Claude calls use of the channel. */
export interface LivePublishing {
  /**
   * Whether anyone follows the conversation, as last checked (the answer is kept about a second);
   * when it is older, a new check starts and `onChecked` runs once it is done.
   */
  followed(workflowId: string, onChecked?: () => void): boolean;
  /** Publishes a piece (fire-and-forget: never throws, never waits; failures are logged, rate-limited). */
  publish(workflowId: string, entry: LiveEntry): void;
}

/** What a follower uses of the channel. */
export interface LiveFollowing {
  /** Says that someone follows the conversation, for the next few seconds (refreshed while following). */
  markFollowing(workflowId: string): Promise<void>;
  /** Every entry the stream still holds (its retained tail), oldest first, and the id to read on from. */
  tail(workflowId: string): Promise<LiveRead>;
  /** A connection for blocking reads. */
  reader(): LiveReader;
}

/** A live channel: both sides, its description, and its end. */
export interface LiveChannel extends LivePublishing, LiveFollowing {
  /** For people, without credentials: `Redis redis://host:6379`. */
  readonly description: string;
  /** Closes its connections. */
  close(): Promise<void>;
}
