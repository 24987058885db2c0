/**
 * The live channel on Redis Streams (`MCP_HOST_LIVE_URL=redis://…`), with ioredis.
 *
 * - One stream per conversation, `mcp-host:live:{workflowId}` (the braces are a Redis Cluster hash
 *   tag: the stream and its presence key live on one node). Each piece is one XADD, trimmed to
 *   about {@link STREAM_MAX_ENTRIES} entries, and the stream expires {@link STREAM_TTL_MS} after
 *   its last write, so a finished conversation leaves nothing behind for long.
 * - Presence: each follower sets `mcp-host:live:{workflowId}:followers` with a
 *   {@link PRESENCE_TTL_MS} expiry and refreshes it every {@link PRESENCE_REFRESH_MS}; the worker
 *   asks whether it exists at most every {@link PRESENCE_CACHE_MS} per conversation, and publishes
 *   nothing while it does not.
 * - The worker never waits for Redis: a piece goes out only while the connection is ready, its
 *   reply is not awaited by the call, and a failure is logged at most once a minute (followers
 *   then have the heartbeats). The URL's credentials never reach a log line.
 */
import type { Redis, RedisOptions } from 'ioredis';
import type { EncryptionKeyring } from '../temporal/encryption-keys';
import { environmentKeyring } from '../temporal/environment-encryption';
import type { LiveChannel, LiveRead, LiveReader } from './live-channel';
import { decodeEntry, encodeEntry, type EntryFields, type LiveEntry } from './live-entry';
import { redactLiveSecrets, type LiveUrl } from './live-url';

/** About this many entries are kept per conversation (XADD MAXLEN ~): far more than a follower needs to catch up. */
export const STREAM_MAX_ENTRIES = 2000;
/** A stream expires this long after its last write (refreshed on each). */
export const STREAM_TTL_MS = 60 * 60 * 1000;
/** A follower's presence lasts this long unless refreshed. */
export const PRESENCE_TTL_MS = 5000;
/** A follower refreshes its presence this often. */
export const PRESENCE_REFRESH_MS = 2000;
/** The worker keeps a conversation's "is anyone following" this long before asking again. */
export const PRESENCE_CACHE_MS = 1000;
/** At most one log line about the channel's failures per this long. */
const ERROR_LOG_GAP_MS = 60_000;
/** Known conversations' presence answers are pruned past this many. */
const PRESENCE_ENTRIES = 1000;

/** A conversation's stream. */
export function streamKey(workflowId: string): string {
  return `mcp-host:live:{${workflowId}}`;
}

/** A conversation's presence key. */
export function followersKey(workflowId: string): string {
  return `${streamKey(workflowId)}:followers`;
}

/** How to open the channel. */
export interface RedisLiveChannelOptions {
  /** Where the channel's failures go, one line at most a minute (default: nowhere). */
  log?: (line: string) => void;
  /** The payload keys that seal the pieces (default: the environment's, `MCP_HOST_ENCRYPTION_*`). */
  keyring?: () => EncryptionKeyring;
  /** The connection's name in Redis (`CLIENT LIST`). */
  connectionName?: string;
}

/** What the worker last learnt of a conversation's followers. */
interface Presence {
  following: boolean;
  checkedAt: number;
  checking: boolean;
  waiting: Set<() => void>;
}

type StreamItems = Array<[id: string, fields: EntryFields]>;

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/** The live channel on one Redis (see the module comment). */
export class RedisLiveChannel implements LiveChannel {
  readonly description: string;
  private readonly redis: Redis;
  private readonly presence = new Map<string, Presence>();
  private readonly keyring: () => EncryptionKeyring;
  private lastErrorLog = 0;
  private closed = false;

  constructor(
    private readonly live: LiveUrl,
    private readonly options: RedisLiveChannelOptions = {},
  ) {
    this.description = `Redis ${live.display}`;
    this.keyring = options.keyring ?? (() => environmentKeyring());
    // Loaded here, not with this module: a process without a broker never loads the client.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a broker is configured
    const { Redis: Client } = require('ioredis') as typeof import('ioredis');
    this.redis = new Client(live.url, this.clientOptions(options.connectionName ?? 'mcp-host'));
    this.redis.on('error', (err: unknown) => this.failed(err));
  }

  private clientOptions(connectionName: string): RedisOptions {
    return {
      connectionName,
      // Replies as RESP2 shapes them (arrays of [id, fields]), whatever the server's default.
      protocol: 2,
      // A command issued while Redis is away fails after a couple of reconnection tries instead of
      // queueing for ever; the worker issues none then (it checks `status` first).
      maxRetriesPerRequest: 2,
      retryStrategy: (times: number) => Math.min(100 * times, 2000),
    };
  }

  /** Logs a failure, at most once a minute, without the URL's credentials. */
  private failed(err: unknown): void {
    if (this.closed) return;
    const now = Date.now();
    if (now - this.lastErrorLog < ERROR_LOG_GAP_MS) return;
    this.lastErrorLog = now;
    this.options.log?.(`live channel ${this.live.display}: ${redactLiveSecrets(messageOf(err), this.live)} (followers read the heartbeats meanwhile)`);
  }

  private ready(): boolean {
    return !this.closed && this.redis.status === 'ready';
  }

  followed(workflowId: string, onChecked?: () => void): boolean {
    let presence = this.presence.get(workflowId);
    if (!presence) {
      this.prune();
      presence = { following: false, checkedAt: 0, checking: false, waiting: new Set() };
      this.presence.set(workflowId, presence);
    }
    if (!presence.checking && Date.now() - presence.checkedAt >= PRESENCE_CACHE_MS) this.check(workflowId, presence);
    if (presence.checking && onChecked) presence.waiting.add(onChecked);
    return presence.following;
  }

  private check(workflowId: string, presence: Presence): void {
    if (!this.ready()) {
      presence.following = false;
      presence.checkedAt = Date.now();
      return;
    }
    presence.checking = true;
    void this.redis.exists(followersKey(workflowId)).then(
      (count) => {
        presence.following = count > 0;
      },
      (err: unknown) => {
        presence.following = false;
        this.failed(err);
      },
    ).finally(() => {
      presence.checking = false;
      presence.checkedAt = Date.now();
      const waiting = [...presence.waiting];
      presence.waiting.clear();
      for (const done of waiting) done();
    });
  }

  /** Forgets the answers of conversations not asked about for a while, past {@link PRESENCE_ENTRIES}. */
  private prune(): void {
    if (this.presence.size < PRESENCE_ENTRIES) return;
    const old = Date.now() - 60_000;
    for (const [workflowId, presence] of this.presence) if (!presence.checking && presence.checkedAt < old) this.presence.delete(workflowId);
  }

  publish(workflowId: string, entry: LiveEntry): void {
    if (!this.ready()) return;
    try {
      const key = streamKey(workflowId);
      const fields = encodeEntry(workflowId, entry, this.keyring());
      void this.redis
        .pipeline()
        .xadd(key, 'MAXLEN', '~', String(STREAM_MAX_ENTRIES), '*', ...fields)
        .pexpire(key, STREAM_TTL_MS)
        .exec()
        .then(
          (results) => {
            const failure = results?.find(([err]) => err !== null)?.[0];
            if (failure) this.failed(failure);
          },
          (err: unknown) => this.failed(err),
        );
    } catch (err) {
      this.failed(err);
    }
  }

  async markFollowing(workflowId: string): Promise<void> {
    await this.redis.set(followersKey(workflowId), '1', 'PX', PRESENCE_TTL_MS);
  }

  async tail(workflowId: string): Promise<LiveRead> {
    const items = (await this.redis.xrange(streamKey(workflowId), '-', '+', 'COUNT', STREAM_MAX_ENTRIES * 2)) as StreamItems;
    return this.decode(workflowId, items, '0-0');
  }

  private decode(workflowId: string, items: StreamItems, afterId: string): LiveRead {
    const keyring = this.keyring();
    const entries: LiveEntry[] = [];
    for (const [, fields] of items) {
      const entry = decodeEntry(workflowId, fields, keyring);
      if (entry) entries.push(entry);
    }
    return { entries, lastId: items.at(-1)?.[0] ?? afterId };
  }

  reader(): LiveReader {
    const connection = this.redis.duplicate(this.clientOptions('mcp-host-follower'));
    // A follower's reads fail and are retried; the connection's own errors say nothing new.
    connection.on('error', () => undefined);
    return {
      read: async (workflowId, afterId, blockMs) => {
        const key = streamKey(workflowId);
        const answer = await connection.xread('BLOCK', blockMs, 'STREAMS', key, afterId);
        const items = answer?.find(([name]) => name === key)?.[1] ?? [];
        return this.decode(workflowId, items, afterId);
      },
      close: () => connection.disconnect(),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const presence of this.presence.values()) presence.waiting.clear();
    if (this.redis.status === 'ready') {
      await Promise.race([this.redis.quit(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]).catch(() => undefined);
    }
    this.redis.disconnect();
  }
}

/** Opens the live channel `live` names (connecting in the background; see {@link RedisLiveChannel}). */
export function openLiveChannel(live: LiveUrl, options: RedisLiveChannelOptions = {}): LiveChannel {
  return new RedisLiveChannel(live, options);
}
