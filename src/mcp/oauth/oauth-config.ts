/**
 * The `oauth` member of an HTTP server's entry in mcp.json: how the host identifies itself to the
 * server's authorization server. Everything is optional: with no `clientId` the host registers
 * itself (a client ID metadata document when `clientMetadataUrl` is set and the server supports
 * it, else dynamic client registration). `"oauth": false` turns OAuth off for the server.
 *
 * ```json
 * "oauth": { "clientId": "…", "clientSecret": "${GITHUB_CLIENT_SECRET}", "scopes": ["repo"], "redirectPort": 8976 }
 * ```
 */

/** A server's OAuth settings (see the module comment). `clientSecret` is a secret. */
export interface OAuthServerConfig {
  /** A client registered beforehand with the authorization server (its redirect URI: `http://127.0.0.1:<redirectPort>/callback`). */
  clientId?: string;
  /** That client's secret (confidential clients), usually `${VAR}`. */
  clientSecret?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata name any. */
  scopes?: string[];
  /** An https URL where the host's client ID metadata document is published (SEP-991). */
  clientMetadataUrl?: string;
  /** The loopback port `mcp-host login` listens on (default: any free port; a pre-registered client needs a fixed one). */
  redirectPort?: number;
}

const KEYS = ['clientId', 'clientSecret', 'scopes', 'clientMetadataUrl', 'redirectPort'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads an entry's `oauth` value: undefined when absent, false when turned off.
 * @param fail Throws naming the field (`oauth.clientId`…); details never quote `clientSecret`.
 * @param expand `${VAR}` expansion of one string field.
 */
export function parseOAuthConfig(
  value: unknown,
  fail: (field: string, detail: string) => never,
  expand: (value: string, field: string) => string,
): OAuthServerConfig | false | undefined {
  if (value === undefined) return undefined;
  if (value === false) return false;
  if (!isRecord(value)) fail('oauth', 'must be an object like {"clientId": "…", "scopes": […]} or false');
  const unknown = Object.keys(value).filter((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) fail('oauth', `has unknown keys ${unknown.map((k) => JSON.stringify(k)).join(', ')}; known keys are ${KEYS.join(', ')}`);
  const config: OAuthServerConfig = {};
  const text = (key: 'clientId' | 'clientSecret' | 'clientMetadataUrl'): string | undefined => {
    const raw = value[key];
    if (raw === undefined) return undefined;
    if (typeof raw !== 'string') fail(`oauth.${key}`, 'must be a string');
    const expanded = expand(raw, `oauth.${key}`);
    if (expanded === '') fail(`oauth.${key}`, 'must not be empty');
    return expanded;
  };
  const clientId = text('clientId');
  const clientSecret = text('clientSecret');
  const clientMetadataUrl = text('clientMetadataUrl');
  if (clientId !== undefined) config.clientId = clientId;
  if (clientSecret !== undefined) {
    if (clientId === undefined) fail('oauth.clientSecret', 'needs "clientId" beside it');
    config.clientSecret = clientSecret;
  }
  if (clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(clientMetadataUrl);
    } catch {
      url = undefined;
    }
    if (url?.protocol !== 'https:' || url.pathname === '/') fail('oauth.clientMetadataUrl', 'must be an https URL with a path (where the client ID metadata document is published)');
    config.clientMetadataUrl = clientMetadataUrl;
  }
  if (value.scopes !== undefined) {
    const scopes = value.scopes;
    if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || s === '' || /\s/.test(s))) {
      fail('oauth.scopes', 'must be an array of scope names (no spaces)');
    }
    config.scopes = scopes as string[];
  }
  if (value.redirectPort !== undefined) {
    const port = value.redirectPort;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) fail('oauth.redirectPort', 'must be a port number from 1 to 65535');
    config.redirectPort = port;
  }
  return config;
}
