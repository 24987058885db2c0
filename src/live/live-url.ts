/**
 * `MCP_HOST_LIVE_URL`: the broker of the live channel (`src/live/`), read by the worker (which
 * publishes each delta of a streaming answer to it) and by the CLI and `ConversationClient.connect`
 * (which follow through it). `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS); unset:
 * followers read the answer from the heartbeats only (`src/activities/publish-progress.ts`).
 * Anything else is refused by name, so a typo or an unsupported broker never goes unseen.
 *
 * The URL may hold credentials: they stay in {@link LiveUrl.url}, which is given to the Redis client
 * and to nothing else; every log line, status line and error uses {@link LiveUrl.display}.
 */

/** The variable's name (public interface). */
export const LIVE_URL_ENV = 'MCP_HOST_LIVE_URL';

/** A broker URL, read and checked. */
export interface LiveUrl {
  /** The broker kind (only Redis so far). */
  readonly kind: 'redis';
  /** The URL as given, credentials included: for the client library only. */
  readonly url: string;
  /** The URL without user and password, for people: `redis://host:6379/0`. */
  readonly display: string;
  /** The password, if any, so that a client error that quotes it can be cleaned. */
  readonly secrets: readonly string[];
}

/**
 * Reads `MCP_HOST_LIVE_URL` (undefined: unset or blank).
 * @throws Error naming the variable for an unsupported scheme or a malformed URL (never quoting credentials).
 */
export function parseLiveUrl(raw: string | undefined): LiveUrl | undefined {
  const value = raw?.trim();
  if (value === undefined || value === '') return undefined;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'nats') throw new Error(`${LIVE_URL_ENV}: nats:// is not supported here; use redis://[user:password@]host:port[/db] or rediss://…`);
  if (scheme !== 'redis' && scheme !== 'rediss') {
    throw new Error(`${LIVE_URL_ENV}: expected redis://[user:password@]host:port[/db] or rediss://…, got ${scheme !== undefined ? `a ${scheme}: URL` : 'no URL scheme'}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${LIVE_URL_ENV}: not a valid URL (expected redis://[user:password@]host:port[/db])`);
  }
  if (url.hostname === '') throw new Error(`${LIVE_URL_ENV}: the URL names no host (expected redis://[user:password@]host:port[/db])`);
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new Error(`${LIVE_URL_ENV}: the database must be a number (redis://host:port/0), got "/${db.slice(0, 40)}"`);
  // A password of fewer than 4 characters is not searched for in messages (it would match ordinary words).
  const secrets = [decodeURIComponent(url.password)].filter((secret) => secret.length >= 4);
  const port = url.port !== '' ? url.port : '6379';
  const display = `${scheme}://${url.hostname}:${port}${db !== '' ? `/${db}` : ''}`;
  return { kind: 'redis', url: value, display, secrets };
}

/** The one line `mcp-host status`, `servers` and a worker's start-up say about the live path. */
export function liveTextLine(live: LiveUrl | undefined): string {
  return live ? `Live text: Redis ${live.display} (stream per conversation)` : `Live text: heartbeats (${LIVE_URL_ENV} unset)`;
}

/** `text` with every credential of `live` replaced by `***` (for an error a client library may word with it). */
export function redactLiveSecrets(text: string, live: LiveUrl): string {
  let out = text.split(live.url).join(live.display);
  for (const secret of live.secrets) out = out.split(secret).join('***');
  return out;
}
