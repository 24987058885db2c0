import type { McpServerConfig } from '../mcp/config';
import { OAuthLoginRequiredError } from '../mcp/oauth/login-required-error';
import { usesOAuth } from '../mcp/oauth/oauth-transport';
import type { OAuthStore } from '../mcp/oauth/oauth-store';
import type { AuthState } from './server-row';

/**
 * How the host authenticates to `server` (see {@link AuthState}), from its config, what connecting
 * to it threw (`connectError`, undefined when it connected) and whether `store` holds its tokens.
 * Only whether tokens exist is read, never what they are.
 */
export async function serverAuthState(server: McpServerConfig, connectError: unknown, store: OAuthStore): Promise<AuthState> {
  if (server.transport === 'stdio') return 'none';
  if (connectError instanceof OAuthLoginRequiredError) return 'login needed';
  // OAuth runs on Streamable HTTP only (src/mcp/transport/open-client.ts).
  if (server.transport === 'sse' || server.oauth === false || !usesOAuth(server)) return 'none';
  if (server.oauth?.grant === 'client_credentials') return 'client credentials';
  if (server.oauth?.grant === 'jwt_bearer') return 'workload identity';
  // A store that cannot be read is the connection's failure to report, not this cell's.
  const entry = await store.get(server.name, server.url).catch(() => undefined);
  return entry?.tokens !== undefined ? 'logged in' : 'none';
}
