/**
 * What a worker's OAuth provider needs of a token store, whichever one it is: the JSON file of one
 * machine (or a shared file system), the default, or the S3 store a fleet of machines shares. The
 * provider (host-oauth-provider.ts) and `mcp-host login` see only this interface.
 *
 * The entries are secrets: no implementation puts one in a log line, an error message, or a
 * workflow or activity payload.
 */
import type { OAuthClientInformationMixed, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';

/** What the store keeps for one MCP server. */
export interface StoredServerAuth {
  /** The server URL the entry belongs to; an entry saved for another URL is ignored. */
  url: string;
  /** The tokens as the SDK saved them (with `issuer`). */
  tokens?: OAuthTokens;
  /** When `tokens` were saved (ms since the epoch): with `expires_in`, their expiry. */
  savedAt?: number;
  /** A dynamic (or URL-based) client registration; pre-registered clients come from mcp.json instead. */
  client?: OAuthClientInformationMixed;
  /**
   * Discovery results written by earlier versions; no longer read or written (each authorization
   * discovers afresh, so a move to another authorization server is seen), only dropped.
   */
  discovery?: OAuthDiscoveryState;
  /** A scope the server asked for (step-up) beyond the stored tokens': the next `login` requests it. */
  wantedScope?: string;
  /** Why the tokens were dropped (a refresh the server refused), for the "login needed" message. */
  problem?: string;
}

/** A change to one server's entry: the new entry, or undefined to delete it. */
export type EntryChange = (entry: StoredServerAuth) => StoredServerAuth | undefined;

/** An OAuth token store (see the module comment). */
export interface OAuthStore {
  /** Where the tokens are, for messages (`/home/…/oauth-tokens.json`, `s3://bucket/prefix`): never a secret. */
  readonly location: string;

  /** The entry of server `name` for `url`, or undefined (none, or one saved for another URL). */
  get(name: string, url: string): Promise<StoredServerAuth | undefined>;

  /**
   * Changes server `name`'s entry atomically: `change` gets the current entry for `url` (a fresh
   * one when there is none or it belongs to another URL) and returns the new one, or undefined to
   * delete it. A writer racing this one never loses its change nor makes this one lose its own
   * (`change` may run more than once, so it must not have side effects).
   */
  update(name: string, url: string, change: EntryChange): Promise<void>;

  /**
   * Runs `body` holding server `name`'s refresh lease, which one holder at a time has across every
   * process and machine sharing the store: a refresh reads the stored refresh token, spends it at
   * the authorization server and writes the new tokens inside one lease, so a rotating refresh
   * token is never spent twice. `get` and `update` work inside `body`. The lease lasts at most
   * {@link REFRESH_LEASE_MS}; a holder that died leaves it to be taken once stale.
   */
  exclusive<T>(name: string, body: () => Promise<T>): Promise<T>;
}

/** How long a refresh lease is good for: a refresh (one token request, bounded shorter) ends well inside it. */
export const REFRESH_LEASE_MS = 30_000;

/** How long one refresh's token request may take: well inside {@link REFRESH_LEASE_MS}. */
export const REFRESH_REQUEST_TIMEOUT_MS = 15_000;

/** How long a process waits for another's refresh lease before giving up (retryably). */
export const REFRESH_LEASE_WAIT_MS = 45_000;
