/**
 * The host's `OAuthClientProvider` for one Streamable HTTP MCP server: the MCP SDK runs the OAuth
 * flow (protected-resource and authorization-server metadata discovery, dynamic or URL-based client
 * registration, PKCE, the RFC 8707 `resource` parameter, scope selection from `WWW-Authenticate`,
 * refresh); this provider says where its state lives, the token store shared by `mcp-host login`
 * and every worker (the file, or the S3 store of a fleet: oauth-store.ts), and, through its
 * {@link HostOAuthProvider.fetch}, makes a worker's refreshes take turns across the fleet
 * (serialised-refresh.ts), so a rotating refresh token is never spent twice.
 *
 * Two modes:
 * - worker (no `onAuthorizationUrl`): tokens are read from the store on every request, so a login
 *   or another worker's refresh is seen at once, and refreshed tokens are written back. When no
 *   token can be had without a person (never logged in, refresh refused, the server moved to
 *   another authorization server), the flow stops with {@link OAuthLoginRequiredError} before any
 *   registration or authorization request is made.
 * - interactive (`login`, the conformance client): stored tokens are ignored (a login asks anew),
 *   the client registers when it has no registration, and the authorization URL goes to
 *   `onAuthorizationUrl`, which either completes it at once (returns the redirect's parameters) or leaves the caller
 *   to wait for the redirect (returns undefined).
 *
 * Registrations and tokens are bound to the authorization server that issued them (SEP-2352): the
 * SDK stamps each with its `issuer` and refuses a stamp of another server, so when the server's
 * protected-resource metadata names a new authorization server the host registers there anew and
 * never shows it the old client ID. For that, discovery runs afresh on each authorization: the
 * discovery state is kept only for the length of one authorization (its redirect leg must use the
 * server it started at), never across them. A pre-registered client (`oauth.clientId`) is bound to
 * `oauth.issuer` when mcp.json names one.
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
  StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { OAuthServerConfig } from './oauth-config';
import { OAuthLoginRequiredError } from './login-required-error';
import type { OAuthStore, StoredServerAuth } from './oauth-store';
import { serialisedRefreshFetch, type FetchLike } from './serialised-refresh';

/** The server the provider works for. */
export interface OAuthServer {
  name: string;
  url: string;
  oauth?: OAuthServerConfig | undefined;
}

/** An interactive session: where the authorization server sends the browser back, and who takes the URL. */
export interface InteractiveAuthorization {
  /** The loopback redirect URI (`http://127.0.0.1:<port>/callback`). */
  redirectUrl: string;
  /**
   * Takes the authorization URL. Returns the parameters of the redirect back (`code`, `state`, and
   * the issuer `iss` the SDK checks, RFC 9207) when it can complete the authorization itself (a
   * headless user agent); undefined when they come later.
   */
  onAuthorizationUrl(url: URL): Promise<URLSearchParams | undefined>;
}

/** The name the host registers under (as its clientInfo in `initialize`). */
const CLIENT_NAME = 'durable-mcp-host';

/** What the worker's redirect URI is, for the SDK's checks only: a worker never starts an authorization. */
const WORKER_REDIRECT_URL = 'http://127.0.0.1/callback';

/** Issuer identifiers name the same server when equal, or equal but for one trailing slash (as the SDK compares). */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/** See the module comment. */
export class HostOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private pendingRedirect: URLSearchParams | undefined;
  /** Interactive mode: tokens obtained in this session (stored ones are not reused). */
  private sessionTokens: OAuthTokens | undefined;
  /** The tokens last handed to the SDK, so an invalidation drops only those (another worker may have refreshed). */
  private lastTokens: OAuthTokens | undefined;
  /** Discovery of the authorization in progress: its redirect leg must go to the same server. */
  private flowDiscovery: OAuthDiscoveryState | undefined;
  /** The issuer a pre-registered client without `oauth.issuer` was first used with (the SDK's stamp). */
  private preRegisteredIssuer: string | undefined;
  private refreshFetch: FetchLike | undefined;

  constructor(
    private readonly server: OAuthServer,
    private readonly store: OAuthStore,
    private readonly interactive?: InteractiveAuthorization,
  ) {}

  /**
   * The fetch the server's transport uses in a worker: the token endpoint's refresh requests hold
   * the store's refresh lease (serialised-refresh.ts). Undefined in interactive mode (a login does
   * not refresh).
   */
  get fetch(): FetchLike | undefined {
    if (this.interactive !== undefined) return undefined;
    this.refreshFetch ??= serialisedRefreshFetch(this.store, this.server);
    return this.refreshFetch;
  }

  get redirectUrl(): string {
    return this.interactive?.redirectUrl ?? WORKER_REDIRECT_URL;
  }

  get clientMetadataUrl(): string | undefined {
    return this.server.oauth?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.server.oauth?.clientSecret !== undefined;
    const scopes = this.server.oauth?.scopes;
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A native application (SEP-837, RFC 8252): the redirect is always a loopback URI.
      application_type: 'native',
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      ...(scopes !== undefined && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  /** The `state` of the authorization request last started (the loopback callback checks it). */
  get authorizationState(): string | undefined {
    return this.expectedState;
  }

  private entry(): Promise<StoredServerAuth | undefined> {
    return this.store.get(this.server.name, this.server.url);
  }

  private loginRequired(entry: StoredServerAuth | undefined): OAuthLoginRequiredError {
    const why = entry?.problem ?? (entry?.tokens !== undefined ? 'the stored token could not be refreshed' : 'no stored OAuth tokens');
    return new OAuthLoginRequiredError(this.server.name, why);
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.interactive === undefined) {
      const entry = await this.entry();
      // A worker with nothing to refresh stops here, before discovery or registration requests.
      if (entry?.tokens?.refresh_token === undefined) throw this.loginRequired(entry);
      // Discovered afresh: the protected resource may have moved to another authorization server.
      return undefined;
    }
    // Only the redirect leg of an authorization in progress reuses its discovery.
    return this.verifier !== undefined ? this.flowDiscovery : undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.flowDiscovery = state;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const oauth = this.server.oauth;
    if (oauth?.clientId !== undefined) {
      const issuer = oauth.issuer ?? this.preRegisteredIssuer;
      if (oauth.issuer !== undefined && ctx !== undefined && !sameIssuer(oauth.issuer, ctx.issuer)) {
        // Never registered elsewhere in its stead, nor sent there: the mcp.json entry must change.
        throw new Error(`MCP server "${this.server.name}" now uses the authorization server ${ctx.issuer}, but its pre-registered OAuth client belongs to ${oauth.issuer} (oauth.issuer in mcp.json)`);
      }
      return { client_id: oauth.clientId, ...(oauth.clientSecret !== undefined ? { client_secret: oauth.clientSecret } : {}), ...(issuer !== undefined ? { issuer } : {}) };
    }
    const entry = await this.entry();
    if (this.interactive === undefined) {
      if (entry?.client === undefined) throw this.loginRequired(entry);
      const registeredAt = entry.client.issuer;
      // A worker does not register itself at a new authorization server: that takes a login.
      if (ctx !== undefined && registeredAt !== undefined && !sameIssuer(registeredAt, ctx.issuer)) {
        throw new OAuthLoginRequiredError(this.server.name, `the server now uses the authorization server ${ctx.issuer}, not ${registeredAt}`);
      }
    }
    return entry?.client;
  }

  async saveClientInformation(info: StoredOAuthClientInformation): Promise<void> {
    // A pre-registered client lives in mcp.json; its secret is not copied into the store.
    if (this.server.oauth?.clientId !== undefined) {
      this.preRegisteredIssuer ??= info.issuer;
      return;
    }
    await this.store.update(this.server.name, this.server.url, (entry) => ({ ...entry, client: info }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    this.lastTokens = this.interactive !== undefined ? this.sessionTokens : (await this.entry())?.tokens;
    return this.lastTokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    if (this.interactive !== undefined) this.sessionTokens = tokens;
    // The authorization (if one was in progress) is complete: the next one discovers afresh.
    this.verifier = undefined;
    this.flowDiscovery = undefined;
    await this.store.update(this.server.name, this.server.url, (entry) => {
      const next: StoredServerAuth = { ...entry, savedAt: Date.now() };
      // A refresh answer may leave out the refresh token: the old one stays valid (RFC 6749 §6).
      next.tokens = tokens.refresh_token === undefined && entry.tokens?.refresh_token !== undefined ? { ...tokens, refresh_token: entry.tokens.refresh_token } : tokens;
      delete next.problem;
      return next;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.interactive === undefined) throw this.loginRequired(await this.entry());
    this.pendingRedirect = await this.interactive.onAuthorizationUrl(authorizationUrl);
  }

  /** The redirect a headless user agent brought back for the last authorization URL (code, state, iss), once. */
  takeAuthorizationResponse(): URLSearchParams | undefined {
    const params = this.pendingRedirect;
    this.pendingRedirect = undefined;
    return params;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier: no authorization was started in this session');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    const dropped = this.lastTokens;
    if (scope === 'all' || scope === 'tokens') this.sessionTokens = undefined;
    if (scope === 'all' || scope === 'discovery') this.flowDiscovery = undefined;
    await this.store.update(this.server.name, this.server.url, (entry) => {
      const next = { ...entry };
      if (scope === 'all' || scope === 'tokens') {
        // Only the tokens this provider used: tokens another worker wrote meanwhile are newer and may work.
        if (next.tokens !== undefined && (dropped === undefined || next.tokens.access_token === dropped.access_token)) {
          delete next.tokens;
          next.problem = 'the authorization server refused the stored token; it may have expired or been revoked';
        }
      }
      if (scope === 'all' || scope === 'client') delete next.client;
      if (scope === 'all' || scope === 'discovery') delete next.discovery;
      return next;
    });
  }
}
