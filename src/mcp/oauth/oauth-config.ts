/**
 * The `oauth` member of an HTTP server's entry in mcp.json: how the host identifies itself to the
 * server's authorization server. `"oauth": false` turns OAuth off for the server.
 *
 * The authorization-code grant (the default, `mcp-host login` once by a person): everything is
 * optional; with no `clientId` the host registers itself (a client ID metadata document when
 * `clientMetadataUrl` is set and the server supports it, else dynamic client registration).
 *
 * ```json
 * "oauth": { "clientId": "…", "clientSecret": "${GITHUB_CLIENT_SECRET}", "scopes": ["repo"], "redirectPort": 8976 }
 * ```
 *
 * A pre-registered client (`clientId`) may name the `issuer` of the authorization server it is
 * registered with: it is then never used with another one (SEP-2352), and a server that moves to
 * another authorization server is refused with a message rather than sent the client's credentials.
 *
 * The client-credentials grant (`"grant": "client_credentials"`, OAuth's grant for a client with no
 * person, SEP-1046): every worker gets its own tokens with the client's credential, no login. One
 * credential, never written in the file itself: `clientSecret` as a `${VAR}` reference or
 * `clientSecretFile` (sent `client_secret_basic` unless `tokenEndpointAuthMethod` says
 * `client_secret_post`), or a private key for an RFC 7523 JWT assertion (`private_key_jwt`):
 * `privateKeyFile` (PEM) or `privateKey` as a `${VAR}` reference, signed with `signingAlgorithm`
 * (default from the key: RS256, ES256/384/512 or EdDSA). `issuer` binds the credential to that
 * authorization server: it is never sent to another one.
 *
 * ```json
 * "oauth": { "grant": "client_credentials", "clientId": "fleet", "privateKeyFile": "/etc/mcp/fleet.pem", "issuer": "https://auth.example.com" }
 * ```
 *
 * The JWT-bearer grant for workload identity (`"grant": "jwt_bearer"`, RFC 7523 §2.1, SEP-1933): the
 * worker trades a token of its own identity that its platform issues (a Kubernetes projected
 * service-account token, a cloud workload identity token) for access tokens, no login, no client
 * secret. One source of the assertion, never written in the file itself: `assertionFile` (read
 * afresh for every token request, as platforms rotate it) or `assertion` as a `${VAR}` reference.
 * `clientId` (sent when given), `scopes` and `issuer` are optional.
 *
 * ```json
 * "oauth": { "grant": "jwt_bearer", "assertionFile": "/var/run/secrets/tokens/mcp", "issuer": "https://auth.example.com" }
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
  /** The OAuth grant: `authorization_code` (default: a person logs in once) or `client_credentials` (no person). */
  grant?: OAuthGrant;
  /** Client credentials: a file holding the client secret (trailing newline ignored). */
  clientSecretFile?: string;
  /** Client credentials: how the secret goes to the token endpoint (default `client_secret_basic`). */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
  /** Client credentials: a PEM private key for `private_key_jwt` (from a `${VAR}`); a secret. */
  privateKey?: string;
  /** Client credentials: a file holding the PEM private key for `private_key_jwt`. */
  privateKeyFile?: string;
  /** Client credentials: the JWS algorithm of the assertion (default from the key). */
  signingAlgorithm?: string;
  /** JWT bearer: the workload's identity token (from a `${VAR}`); a secret. */
  assertion?: string;
  /** JWT bearer: a file holding the workload's identity token, read for every token request. */
  assertionFile?: string;
  /** A pre-registered client's, client credential's or workload's authorization server (its issuer): never used with another (recommended). */
  issuer?: string;
}

/** OAuth grants the host runs. */
export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt_bearer';

const KEYS = [
  'clientId',
  'clientSecret',
  'scopes',
  'clientMetadataUrl',
  'redirectPort',
  'grant',
  'clientSecretFile',
  'tokenEndpointAuthMethod',
  'privateKey',
  'privateKeyFile',
  'signingAlgorithm',
  'assertion',
  'assertionFile',
  'issuer',
] as const;

/** The settings of the client-credentials grant only. */
const CLIENT_CREDENTIALS_KEYS = ['clientSecretFile', 'tokenEndpointAuthMethod', 'privateKey', 'privateKeyFile', 'signingAlgorithm'] as const;

/** The settings of the JWT-bearer grant only. */
const JWT_BEARER_KEYS = ['assertion', 'assertionFile'] as const;

/** JWS algorithms a private-key assertion may be signed with. */
const SIGNING_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** A whole-value `${VAR}` reference: how a client-credentials secret or an assertion is written in the file. */
const VARIABLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

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
  const text = (key: 'clientId' | 'clientSecret' | 'clientMetadataUrl' | 'clientSecretFile' | 'privateKey' | 'privateKeyFile' | 'assertion' | 'assertionFile' | 'issuer'): string | undefined => {
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
  if (value.grant !== undefined && value.grant !== 'authorization_code' && value.grant !== 'client_credentials' && value.grant !== 'jwt_bearer') {
    fail('oauth.grant', 'must be "authorization_code" (the default: a person logs in once), "client_credentials" (no person) or "jwt_bearer" (workload identity)');
  }
  if (value.grant !== 'client_credentials') refuseKeys(value, CLIENT_CREDENTIALS_KEYS, 'client_credentials', fail);
  if (value.grant !== 'jwt_bearer') refuseKeys(value, JWT_BEARER_KEYS, 'jwt_bearer', fail);
  if (value.grant === 'client_credentials') return parseClientCredentials(value, config, fail, (key) => text(key));
  if (value.grant === 'jwt_bearer') return parseJwtBearer(value, config, fail, (key) => text(key));
  const issuer = text('issuer');
  if (issuer !== undefined) {
    // A registration of the host's own (dynamic, or a metadata document) is bound by the SDK already.
    if (config.clientId === undefined) fail('oauth.issuer', 'applies to a pre-registered client: needs "clientId" beside it');
    config.issuer = issuer;
  }
  return config;
}

/** Refuses the settings `keys` of another grant than `value`'s. */
function refuseKeys(value: Record<string, unknown>, keys: readonly string[], grant: OAuthGrant, fail: (field: string, detail: string) => never): void {
  for (const key of keys) {
    if (value[key] !== undefined) fail(`oauth.${key}`, `applies only with "grant": "${grant}"`);
  }
}

/** Refuses a secret written in the file's own text: it must be a whole `${VAR}` reference (or come from `${key}File`). */
function refuseLiteral(value: Record<string, unknown>, key: string, fail: (field: string, detail: string) => never): void {
  if (value[key] !== undefined && !(typeof value[key] === 'string' && VARIABLE_REFERENCE.test(value[key]))) {
    fail(`oauth.${key}`, `must be a \${VAR} reference to the worker's environment (or use "${key}File"), never the secret itself`);
  }
}

/** The client-credentials settings of `value` (see the module comment), added to `config`. */
function parseClientCredentials(
  value: Record<string, unknown>,
  config: OAuthServerConfig,
  fail: (field: string, detail: string) => never,
  text: (key: 'clientSecretFile' | 'privateKey' | 'privateKeyFile' | 'issuer') => string | undefined,
): OAuthServerConfig {
  config.grant = 'client_credentials';
  if (config.clientId === undefined) fail('oauth.clientId', 'is required with "grant": "client_credentials"');
  for (const key of ['clientMetadataUrl', 'redirectPort'] as const) {
    if (config[key] !== undefined) fail(`oauth.${key}`, 'does not apply with "grant": "client_credentials" (no login, no redirect)');
  }
  // The secrets come from the worker's environment or files, never from the file's own text.
  refuseLiteral(value, 'clientSecret', fail);
  refuseLiteral(value, 'privateKey', fail);
  const clientSecretFile = text('clientSecretFile');
  const privateKey = text('privateKey');
  const privateKeyFile = text('privateKeyFile');
  const issuer = text('issuer');
  const given = [config.clientSecret !== undefined, clientSecretFile, privateKey, privateKeyFile].filter((v) => v !== undefined && v !== false);
  if (given.length !== 1) fail('oauth', 'with "grant": "client_credentials" needs exactly one of "clientSecret", "clientSecretFile", "privateKey", "privateKeyFile"');
  if (clientSecretFile !== undefined) config.clientSecretFile = clientSecretFile;
  if (privateKey !== undefined) config.privateKey = privateKey;
  if (privateKeyFile !== undefined) config.privateKeyFile = privateKeyFile;
  const usesKey = privateKey !== undefined || privateKeyFile !== undefined;
  const method = value.tokenEndpointAuthMethod;
  if (method !== undefined) {
    if (usesKey) fail('oauth.tokenEndpointAuthMethod', 'does not apply to a private key (always private_key_jwt)');
    if (method !== 'client_secret_basic' && method !== 'client_secret_post') fail('oauth.tokenEndpointAuthMethod', 'must be "client_secret_basic" or "client_secret_post"');
    config.tokenEndpointAuthMethod = method;
  }
  const algorithm = value.signingAlgorithm;
  if (algorithm !== undefined) {
    if (!usesKey) fail('oauth.signingAlgorithm', 'applies only to a private key ("privateKey", "privateKeyFile")');
    if (typeof algorithm !== 'string' || !SIGNING_ALGORITHMS.includes(algorithm)) fail('oauth.signingAlgorithm', `must be one of ${SIGNING_ALGORITHMS.join(', ')}`);
    config.signingAlgorithm = algorithm;
  }
  if (issuer !== undefined) config.issuer = issuer;
  return config;
}

/** The JWT-bearer settings of `value` (see the module comment), added to `config`. */
function parseJwtBearer(
  value: Record<string, unknown>,
  config: OAuthServerConfig,
  fail: (field: string, detail: string) => never,
  text: (key: 'assertion' | 'assertionFile' | 'issuer') => string | undefined,
): OAuthServerConfig {
  config.grant = 'jwt_bearer';
  for (const key of ['clientSecret', 'clientMetadataUrl', 'redirectPort'] as const) {
    if (config[key] !== undefined) fail(`oauth.${key}`, 'does not apply with "grant": "jwt_bearer" (the workload\'s assertion is its credential; no login, no redirect)');
  }
  // The workload's token comes from the worker's environment or its file, never from the file's own text.
  refuseLiteral(value, 'assertion', fail);
  const assertion = text('assertion');
  const assertionFile = text('assertionFile');
  if ((assertion === undefined) === (assertionFile === undefined)) fail('oauth', 'with "grant": "jwt_bearer" needs exactly one of "assertion", "assertionFile"');
  if (assertion !== undefined) config.assertion = assertion;
  if (assertionFile !== undefined) config.assertionFile = assertionFile;
  const issuer = text('issuer');
  if (issuer !== undefined) config.issuer = issuer;
  return config;
}
