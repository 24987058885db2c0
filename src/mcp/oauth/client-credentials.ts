/**
 * The OAuth client-credentials grant for a server configured with `"grant": "client_credentials"`
 * (src/mcp/oauth/oauth-config.ts): the MCP SDK v2's providers run it (discovery from the server's
 * protected-resource metadata, the token request, a new token when one expires); this module turns
 * the mcp.json settings into one. The credential (a secret, or a private key that signs an RFC 7523
 * assertion) is read in the worker when the connection opens, from its environment (already
 * expanded) or a file; tokens stay in the provider, in the worker's memory: no store, no login,
 * and nothing of them in any workflow argument, result or log line.
 */
import { createPrivateKey } from 'node:crypto';
import { ClientCredentialsProvider, PrivateKeyJwtProvider, type OAuthClientProvider, type StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { HostError } from '../../errors/host-error';
import { readCredentialFile } from './credential-file';
import type { OAuthServerConfig } from './oauth-config';

/** The name the host gives itself in the client metadata. */
const CLIENT_NAME = 'durable-mcp-host';

/** A secret sent `client_secret_post` (the SDK's provider sends `client_secret_basic`, or what the server supports). */
class PostClientCredentialsProvider extends ClientCredentialsProvider {
  override clientInformation(): StoredOAuthClientInformation {
    return { ...super.clientInformation(), token_endpoint_auth_method: 'client_secret_post' };
  }
}

/** A secret or key from its file, without the trailing newline an editor or `echo` leaves. */
function readSecretFile(server: string, field: string, path: string): string {
  return readCredentialFile(server, field, path).replace(/\r?\n$/, '');
}

/** The JWS algorithm a key signs with when mcp.json names none. */
function defaultAlgorithm(server: string, pem: string): string {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new HostError(`MCP server "${server}": the OAuth private key is not a PEM private key`, 'mcp.connect_failed', false);
  }
  const type = key.asymmetricKeyType;
  if (type === 'rsa' || type === 'rsa-pss') return type === 'rsa' ? 'RS256' : 'PS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1' || curve === 'P-256') return 'ES256';
    if (curve === 'secp384r1' || curve === 'P-384') return 'ES384';
    if (curve === 'secp521r1' || curve === 'P-521') return 'ES512';
  }
  throw new HostError(`MCP server "${server}": cannot tell the signing algorithm of its ${type ?? 'unknown'} key; set oauth.signingAlgorithm`, 'mcp.connect_failed', false);
}

/**
 * The provider for a client-credentials server.
 * @throws HostError (`mcp.connect_failed`, not retried) when the credential cannot be read.
 */
export function clientCredentialsProvider(server: string, oauth: OAuthServerConfig): OAuthClientProvider {
  const clientId = oauth.clientId;
  if (clientId === undefined) throw new HostError(`MCP server "${server}": oauth.clientId is required for client credentials`, 'mcp.connect_failed', false);
  const common = {
    clientId,
    clientName: CLIENT_NAME,
    ...(oauth.scopes !== undefined && oauth.scopes.length > 0 ? { scope: oauth.scopes.join(' ') } : {}),
    ...(oauth.issuer !== undefined ? { expectedIssuer: oauth.issuer } : {}),
  };
  const pem = oauth.privateKey ?? (oauth.privateKeyFile !== undefined ? readSecretFile(server, 'privateKeyFile', oauth.privateKeyFile) : undefined);
  if (pem !== undefined) {
    return new PrivateKeyJwtProvider({ ...common, privateKey: pem, algorithm: oauth.signingAlgorithm ?? defaultAlgorithm(server, pem) });
  }
  const clientSecret = oauth.clientSecret ?? (oauth.clientSecretFile !== undefined ? readSecretFile(server, 'clientSecretFile', oauth.clientSecretFile) : undefined);
  if (clientSecret === undefined) throw new HostError(`MCP server "${server}": no client secret or private key for client credentials`, 'mcp.connect_failed', false);
  return oauth.tokenEndpointAuthMethod === 'client_secret_post'
    ? new PostClientCredentialsProvider({ ...common, clientSecret })
    : new ClientCredentialsProvider({ ...common, clientSecret });
}
