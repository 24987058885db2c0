/**
 * Workload identity federation (SEP-1933, the extension `io.modelcontextprotocol/auth/wif`) for a
 * server configured with `"grant": "jwt_bearer"` (src/mcp/oauth/oauth-config.ts): the worker trades
 * a token of its own identity that its platform issues (a Kubernetes projected service-account
 * token, a cloud workload identity token) for an access token, with OAuth's JWT-bearer grant
 * (RFC 7523 §2.1). The MCP SDK v2 runs discovery and the token request; this provider gives it the
 * grant: `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` and the `assertion`, no client
 * authentication (`none`: the assertion is the credential), `client_id` only when one is configured.
 *
 * The assertion file is read afresh for every token request, as platforms rotate it; tokens stay in
 * the provider, in the worker's memory: no store, no login.
 *
 * A refusal is final for the connect or call that met it. The SDK's `auth()` starts over once
 * after `invalid_grant`, `invalid_client` or `unauthorized_client`, calling `invalidateCredentials`
 * first, which would send the grant again; this provider's `invalidateCredentials` throws the
 * authorization server's error instead. It sees that error through the fetch the transport is given
 * ({@link WorkloadIdentityProvider.fetch}, wired in oauth-transport.ts).
 */
import {
  OAuthError,
  OAuthErrorCode,
  parseErrorResponse,
  type AddClientAuthentication,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { HostError } from '../../errors/host-error';
import { readCredentialFile } from './credential-file';
import type { OAuthServerConfig } from './oauth-config';

/** The grant type of RFC 7523 §2.1. */
const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The name the host gives itself in the client metadata. */
const CLIENT_NAME = 'durable-mcp-host';

/** Where the workload's assertion comes from. */
export type AssertionSource = { value: string } | { file: string };

/** A workload identity provider's settings. */
export interface WorkloadIdentityOptions {
  /** The server's name in mcp.json, for messages. */
  server: string;
  /** The assertion (from the worker's environment) or the file holding it. */
  assertion: AssertionSource;
  /** Sent as `client_id` when set. */
  clientId?: string;
  /** Asked for when neither the server's challenge nor its metadata name any. */
  scope?: string;
  /** The authorization server the assertion may go to (its issuer). */
  issuer?: string;
  /** The fetch under {@link WorkloadIdentityProvider.fetch} (default: the global one). */
  baseFetch?: FetchLike;
}

/** An OAuth client provider for the JWT-bearer grant (see the module comment). */
export class WorkloadIdentityProvider implements OAuthClientProvider {
  private issued: StoredOAuthTokens | undefined;
  /** The body of this provider's latest token request: how {@link fetch} tells it from the others. */
  private pending: URLSearchParams | undefined;
  /** The authorization server's error answer to that request, when it refused it. */
  private refusal: OAuthError | undefined;
  private readonly baseFetch: FetchLike;

  constructor(private readonly options: WorkloadIdentityOptions) {
    this.baseFetch = options.baseFetch ?? ((url, init) => fetch(url, init));
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT_TYPE],
      token_endpoint_auth_method: 'none',
      ...(this.options.scope !== undefined ? { scope: this.options.scope } : {}),
    };
  }

  clientInformation(): StoredOAuthClientInformation {
    // The SDK registers a client it has no information for. A workload may have no client ID (its
    // assertion identifies it): the empty one is never sent, see addClientAuthentication.
    return { client_id: this.options.clientId ?? '', ...(this.options.issuer !== undefined ? { issuer: this.options.issuer } : {}) };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.issued;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.issued = tokens;
  }

  redirectToAuthorization(): never {
    throw new Error('the JWT-bearer grant has no authorization redirect');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): never {
    throw new Error('the JWT-bearer grant has no code verifier');
  }

  /**
   * Client authentication `none` (RFC 6749 §2.1): the `client_id` when configured, nothing else. Set,
   * it replaces the SDK's own choice, which would send the empty `client_id` of an unnamed workload.
   * A property: the SDK calls it unbound.
   */
  readonly addClientAuthentication: AddClientAuthentication = (_headers, params) => {
    if (this.options.clientId !== undefined) params.set('client_id', this.options.clientId);
  };

  /** The grant's parameters, with the assertion as it is now (its file read again). */
  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT_TYPE, assertion: this.readAssertion() });
    if (scope !== undefined && scope !== '') params.set('scope', scope);
    this.pending = params;
    this.refusal = undefined;
    return params;
  }

  /**
   * Called by the SDK only after the authorization server refused the grant, before it asks again:
   * throws that refusal instead, so the grant is not sent again (SEP-1933).
   */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): never {
    this.issued = undefined;
    // Without the answer (a transport not given this provider's fetch), the codes the SDK starts over after.
    throw this.refusal ?? new OAuthError(scope === 'client' ? OAuthErrorCode.UnauthorizedClient : OAuthErrorCode.InvalidGrant, 'the authorization server refused the JWT-bearer grant');
  }

  /**
   * The fetch for the transport (its `fetch` option): passes every request on, and keeps the
   * authorization server's error answer to this provider's token request for
   * {@link invalidateCredentials}.
   */
  readonly fetch: FetchLike = async (url, init) => {
    const response = await this.baseFetch(url, init);
    if (!response.ok && this.pending !== undefined && init?.body === this.pending) {
      this.refusal = await parseErrorResponse(response.clone());
    }
    return response;
  };

  private readAssertion(): string {
    const source = this.options.assertion;
    if ('value' in source) return source.value;
    const assertion = readCredentialFile(this.options.server, 'assertionFile', source.file).trim();
    if (assertion === '') throw new HostError(`MCP server "${this.options.server}": oauth.assertionFile ${JSON.stringify(source.file)} is empty`, 'mcp.connect_failed', false);
    return assertion;
  }
}

/** The provider for a server configured with `"grant": "jwt_bearer"`. */
export function workloadIdentityProvider(server: string, oauth: OAuthServerConfig): WorkloadIdentityProvider {
  const assertion: AssertionSource | undefined =
    oauth.assertion !== undefined ? { value: oauth.assertion } : oauth.assertionFile !== undefined ? { file: oauth.assertionFile } : undefined;
  if (assertion === undefined) throw new HostError(`MCP server "${server}": no oauth.assertion or oauth.assertionFile for the JWT-bearer grant`, 'mcp.connect_failed', false);
  return new WorkloadIdentityProvider({
    server,
    assertion,
    ...(oauth.clientId !== undefined ? { clientId: oauth.clientId } : {}),
    ...(oauth.scopes !== undefined && oauth.scopes.length > 0 ? { scope: oauth.scopes.join(' ') } : {}),
    ...(oauth.issuer !== undefined ? { issuer: oauth.issuer } : {}),
  });
}
