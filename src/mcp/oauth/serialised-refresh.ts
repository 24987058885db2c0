/**
 * Serialises a worker's token refreshes across every process and machine sharing the token store,
 * so that a rotating refresh token is never spent twice. The MCP SDK runs the refresh itself (read
 * the tokens, POST the refresh grant, save the answer) and offers no hook around it; the request
 * to the token endpoint passes through the transport's `fetch`, though, and that is where this
 * wrapper holds the store's refresh lease ({@link OAuthStore.exclusive}) from reading the stored
 * refresh token to writing the new tokens:
 *
 * - Another holder refreshed since this worker read its tokens (the stored access token is newer
 *   than the refresh token presented, and still good): no request is made; the stored tokens are
 *   the answer, as if the authorization server had given them (the SDK then saves them, unchanged).
 * - Otherwise the grant is sent with the refresh token the store holds now (the newest one, which
 *   nobody has spent: spending happens only under the lease), within {@link REFRESH_REQUEST_TIMEOUT_MS}
 *   so the lease outlives it, and the new tokens are written before the lease is released.
 *
 * A refused refresh (`invalid_grant`) passes to the SDK unchanged: the provider drops the tokens
 * it used and the call asks for a login. Every other request passes straight through.
 */
import type { OAuthTokens } from '@modelcontextprotocol/client';
import { REFRESH_REQUEST_TIMEOUT_MS, type OAuthStore, type StoredServerAuth } from './oauth-store';

/** The fetch the SDK takes (`FetchLike`). */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Stored tokens with less than this left (or a quarter of their lifetime, when that is shorter) are
 * refreshed rather than handed on: they would expire on the way.
 */
const MIN_REMAINING_SECONDS = 5;

/** The refresh token of a refresh-grant request body, or undefined for any other request. */
function presentedRefreshToken(init: RequestInit | undefined): string | undefined {
  if (init?.method?.toUpperCase() !== 'POST' || !(init.body instanceof URLSearchParams)) return undefined;
  if (init.body.get('grant_type') !== 'refresh_token') return undefined;
  return init.body.get('refresh_token') ?? undefined;
}

/** Seconds the stored access token has left (undefined: it did not say when it expires). */
function remainingSeconds(entry: StoredServerAuth): number | undefined {
  const expiresIn = entry.tokens?.expires_in;
  if (expiresIn === undefined || entry.savedAt === undefined) return undefined;
  return expiresIn - (Date.now() - entry.savedAt) / 1000;
}

/** A token endpoint's answer carrying `tokens` (what an authorization server sends, RFC 6749 §5.1). */
function tokensResponse(tokens: OAuthTokens, remaining: number | undefined): Response {
  // `issuer` is the SDK's stamp, not the wire's: the SDK adds it back to what it saves.
  const wire: Record<string, unknown> = { ...tokens };
  delete wire.issuer;
  const body = { ...wire, ...(remaining !== undefined ? { expires_in: Math.floor(remaining) } : {}) };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `base` with server `name`'s refreshes serialised through `store` (see the module comment).
 * @param server The server as the store keys it: its mcp.json name and URL.
 */
export function serialisedRefreshFetch(store: OAuthStore, server: { name: string; url: string }, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const presented = presentedRefreshToken(init);
    if (presented === undefined || init === undefined) return base(url, init);
    return store.exclusive(server.name, async () => {
      const entry = await store.get(server.name, server.url);
      const stored = entry?.tokens;
      if (entry !== undefined && stored?.refresh_token !== undefined && stored.refresh_token !== presented) {
        const remaining = remainingSeconds(entry);
        // Another worker won the race: its tokens, not a second refresh.
        const margin = Math.min(MIN_REMAINING_SECONDS, (stored.expires_in ?? 0) / 4);
        if (remaining === undefined || remaining > margin) return tokensResponse(stored, remaining);
      }
      const refreshToken = stored?.refresh_token ?? presented;
      const body = new URLSearchParams(init.body as URLSearchParams);
      body.set('refresh_token', refreshToken);
      const timeout = AbortSignal.timeout(REFRESH_REQUEST_TIMEOUT_MS);
      const response = await base(url, { ...init, body, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
      if (!response.ok) return response;
      const answer: unknown = await response
        .clone()
        .json()
        .catch(() => undefined);
      if (isRecord(answer) && typeof answer.access_token === 'string') {
        const issued = answer as unknown as OAuthTokens;
        await store.update(server.name, server.url, (current) => ({
          ...current,
          savedAt: Date.now(),
          // Stamped with the issuer the spent tokens had (the SDK's SEP-2352 stamp); a refresh answer
          // may leave out the refresh token, and the old one stays valid (RFC 6749 §6).
          tokens: {
            ...issued,
            refresh_token: issued.refresh_token ?? refreshToken,
            ...(stored !== undefined && 'issuer' in stored ? { issuer: (stored as OAuthTokens & { issuer?: string }).issuer } : {}),
          },
          problem: undefined,
        }));
      }
      return response;
    });
  };
}
