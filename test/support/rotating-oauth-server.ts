/**
 * An OAuth-protected Streamable HTTP MCP server (the `whoami` tool) with its own authorization
 * server, for the OAuth tests (oauth.test.ts, oauth-fleet.test.ts): the MCP SDK's server auth pieces (mcpAuthRouter,
 * requireBearerAuth) over an in-memory provider that approves at once, issues short-lived access
 * tokens and rotates refresh tokens (each good once; a reuse is refused with invalid_grant). It
 * keeps its own log of every refresh grant: the refresh token presented, which worker presented it
 * (the `x-fleet-worker` header a worker's mcp.json adds to its requests) and the answer.
 */
import type { Response as ExpressResponse } from 'express';
import express from 'express';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { DemoInMemoryClientsStore } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { serveWhoami } from './whoami-route';

/** The header a worker's mcp.json entry sends, naming the worker to the authorization server's log. */
export const WORKER_HEADER = 'x-fleet-worker';

/** One refresh grant as the authorization server saw it. */
export interface RefreshGrant {
  /** The refresh token presented. */
  presented: string;
  /** The worker that presented it ({@link WORKER_HEADER}), or '' when none was named. */
  worker: string;
  /** Whether it was accepted (false: invalid_grant, a reuse or an unknown token). */
  accepted: boolean;
  at: number;
}

/** An authorization server in memory with short access tokens and rotating refresh tokens. */
class RotatingProvider implements OAuthServerProvider {
  readonly clientsStore = new DemoInMemoryClientsStore();
  private readonly codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  private readonly access = new Map<string, { clientId: string; scopes: string[]; expiresAt: number; resource?: URL }>();
  private readonly refresh = new Map<string, { clientId: string; scopes: string[]; resource?: URL }>();
  /** Every secret this server handed out: codes, access and refresh tokens. */
  readonly issued: string[] = [];
  /** Every refresh token this server issued, in order. */
  readonly refreshTokens: string[] = [];
  readonly grants: RefreshGrant[] = [];
  /** The worker of the token request being handled, by the refresh token it presents. */
  readonly workerOf = new Map<string, string>();

  constructor(private readonly accessSeconds: number) {}

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: ExpressResponse): Promise<void> {
    const code = `code-${randomUUID()}`;
    this.issued.push(code);
    this.codes.set(code, { client, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
    return Promise.resolve();
  }

  challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (entry === undefined) throw new InvalidGrantError('unknown code');
    return Promise.resolve(entry.params.codeChallenge);
  }

  private issue(clientId: string, scopes: string[], resource: URL | undefined): OAuthTokens {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.issued.push(accessToken, refreshToken);
    this.refreshTokens.push(refreshToken);
    this.access.set(accessToken, { clientId, scopes, expiresAt: Date.now() + this.accessSeconds * 1000, ...(resource ? { resource } : {}) });
    this.refresh.set(refreshToken, { clientId, scopes, ...(resource ? { resource } : {}) });
    return { access_token: accessToken, token_type: 'bearer', expires_in: this.accessSeconds, refresh_token: refreshToken, scope: scopes.join(' ') };
  }

  exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (entry === undefined || entry.client.client_id !== client.client_id) throw new InvalidGrantError('unknown code');
    this.codes.delete(code);
    return Promise.resolve(this.issue(client.client_id, entry.params.scopes ?? [], entry.params.resource));
  }

  exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const entry = this.refresh.get(refreshToken);
    const grant: RefreshGrant = { presented: refreshToken, worker: this.workerOf.get(refreshToken) ?? '', accepted: false, at: Date.now() };
    this.grants.push(grant);
    if (entry === undefined || entry.clientId !== client.client_id) throw new InvalidGrantError('the refresh token is not valid');
    // Rotation: a refresh token is good once.
    this.refresh.delete(refreshToken);
    grant.accepted = true;
    return Promise.resolve(this.issue(client.client_id, entry.scopes, entry.resource));
  }

  /** Refresh grants accepted so far. */
  get refreshes(): number {
    return this.grants.filter((g) => g.accepted).length;
  }

  /** Refresh grants refused so far (invalid_grant). */
  get refusedRefreshes(): number {
    return this.grants.filter((g) => !g.accepted).length;
  }

  /** What an authorization server does when a grant is revoked: no refresh token works any more. */
  revokeRefreshTokens(): void {
    this.refresh.clear();
  }

  verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.access.get(token);
    if (entry === undefined || entry.expiresAt < Date.now()) throw new InvalidTokenError('unknown or expired token');
    return Promise.resolve({ token, clientId: entry.clientId, scopes: entry.scopes, expiresAt: Math.floor(entry.expiresAt / 1000), ...(entry.resource ? { resource: entry.resource } : {}) });
  }
}

/** The running server. */
export interface RotatingOAuthServer {
  /** The MCP endpoint's URL. */
  url: string;
  provider: RotatingProvider;
  /** The bearer tokens the MCP endpoint was called with, in order. */
  bearers: string[];
  close(): Promise<void>;
}

/**
 * Starts the server on a free port of 127.0.0.1; access tokens live `accessSeconds`.
 * @param refreshBarrierMs A refresh grant waits this long for a second one before it is answered
 *   (both go on at once when a second comes): two workers whose refreshes come that close together
 *   both reach the server, unless something (the host's refresh lease) keeps the second one back.
 */
export async function startRotatingOAuthServer(accessSeconds: number, refreshBarrierMs = 0): Promise<RotatingOAuthServer> {
  const provider = new RotatingProvider(accessSeconds);
  const bearers: string[] = [];
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = new URL(`${base}/mcp`);
  // Before the router: which worker presents which refresh token (the router's parser keeps this
  // body), and the barrier that holds a refresh for a second one.
  let waiting: Array<() => void> = [];
  const releaseAll = (): void => {
    const go = waiting;
    waiting = [];
    for (const next of go) next();
  };
  app.use('/token', express.urlencoded({ extended: false }), (req, _res, next) => {
    const body = req.body as Record<string, string | undefined>;
    if (body.grant_type !== 'refresh_token' || body.refresh_token === undefined) return next();
    provider.workerOf.set(body.refresh_token, req.header(WORKER_HEADER) ?? '');
    waiting.push(() => next());
    if (waiting.length >= 2) releaseAll();
    else setTimeout(releaseAll, refreshBarrierMs);
  });
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }));
  const auth = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  serveWhoami(app, auth, bearers, 'protected-demo');
  return {
    url: mcpUrl.href,
    provider,
    bearers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
