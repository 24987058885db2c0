/**
 * Wires OAuth into a Streamable HTTP transport: which servers get it, the provider, and the one
 * step the SDK leaves to its caller, finishing an authorization that a headless user agent
 * completed during the request and sending that request again.
 */
import {
  UnauthorizedError,
  type JSONRPCMessage,
  type OAuthClientProvider,
  type StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
  type Transport,
} from '@modelcontextprotocol/client';
import { clientCredentialsProvider } from './client-credentials';
import { HostOAuthProvider, type InteractiveAuthorization, type OAuthServer } from './host-oauth-provider';
import type { OAuthServerConfig } from './oauth-config';
import type { OAuthStore } from './oauth-store';
import { oauthStoreFromEnv } from './oauth-store-from-env';
import { WorkloadIdentityProvider, workloadIdentityProvider } from './workload-identity';

/** How a connection pool does OAuth (default: the store `MCP_HOST_OAUTH_STORE` names, {@link oauthStoreFromEnv}; worker mode). */
export interface HostOAuthOptions {
  store?: OAuthStore;
  /** A person or headless user agent that can authorize; absent in a worker. */
  interactive?: InteractiveAuthorization;
}

/** An HTTP server as far as OAuth cares. */
export interface OAuthCandidate extends Omit<OAuthServer, 'oauth'> {
  headers: Record<string, string>;
  oauth?: OAuthServerConfig | false | undefined;
}

/** Whether the host does OAuth for the server: not turned off, and no static `Authorization` header of its own. */
export function usesOAuth(server: OAuthCandidate): boolean {
  return server.oauth !== false && !Object.keys(server.headers).some((name) => name.toLowerCase() === 'authorization');
}

/** The server's provider, or undefined when the host does no OAuth for it. */
export function oauthProviderFor(server: OAuthCandidate, options: HostOAuthOptions = {}): OAuthClientProvider | undefined {
  if (!usesOAuth(server) || server.oauth === false) return undefined;
  if (server.oauth?.grant === 'client_credentials') return clientCredentialsProvider(server.name, server.oauth);
  if (server.oauth?.grant === 'jwt_bearer') return workloadIdentityProvider(server.name, server.oauth);
  const store = options.store ?? oauthStoreFromEnv();
  return new HostOAuthProvider({ name: server.name, url: server.url, oauth: server.oauth }, store, options.interactive);
}

/**
 * The Streamable HTTP transport's options for `provider` (none without one): the provider, for
 * workload identity the fetch through which it sees its token requests refused, and for a worker's
 * login-based provider the fetch that serialises its refreshes across the fleet.
 */
export function authTransportOptions(provider: OAuthClientProvider | undefined): Pick<StreamableHTTPClientTransportOptions, 'authProvider' | 'fetch'> {
  if (provider === undefined) return {};
  if (provider instanceof WorkloadIdentityProvider) return { authProvider: provider, fetch: provider.fetch };
  const fetch = provider instanceof HostOAuthProvider ? provider.fetch : undefined;
  return fetch !== undefined ? { authProvider: provider, fetch } : { authProvider: provider };
}

/**
 * When the SDK stops a request at the authorization redirect (`UnauthorizedError`) and the user
 * agent already brought back the redirect (code and issuer), exchanges it (`finishAuth`, which
 * checks the issuer, RFC 9207) and sends the request again,
 * once per redirect. A request refused that way was never accepted by the server, so sending it
 * again is safe.
 */
export function finishAuthorizationAndResend(transport: StreamableHTTPClientTransport, provider: OAuthClientProvider): void {
  // Only the authorization-code flow, with a user agent that completes it, has a redirect to finish.
  if (!(provider instanceof HostOAuthProvider)) return;
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> => {
    try {
      return await send(message, options);
    } catch (err) {
      const redirect = err instanceof UnauthorizedError ? provider.takeAuthorizationResponse() : undefined;
      if (redirect === undefined) throw err;
      await transport.finishAuth(redirect);
      return send(message, options);
    }
  };
}
