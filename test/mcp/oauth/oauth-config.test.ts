import { parseMcpConfig } from '../../../src/mcp/config';
import { serverSecrets } from '../../../src/mcp/config/server-secrets';

const options = { env: { SECRET: 'client-secret-value' }, source: 'mcp.json', baseDir: '/tmp' };

describe('the oauth member of an HTTP server in mcp.json', () => {
  test('a pre-registered client with ${VAR} secret, scopes and a redirect port; its secret is a server secret', () => {
    const [server] = parseMcpConfig(
      { mcpServers: { gh: { url: 'https://mcp.example/mcp', oauth: { clientId: 'cid', clientSecret: '${SECRET}', scopes: ['repo'], redirectPort: 8976 } } } },
      options,
    );
    expect(server).toMatchObject({ transport: 'http', oauth: { clientId: 'cid', clientSecret: 'client-secret-value', scopes: ['repo'], redirectPort: 8976 } });
    expect(server && serverSecrets(server)).toContain('client-secret-value');
  });

  test('a pre-registered client may name the issuer of its authorization server; a registration of the host\'s own may not', () => {
    const [server] = parseMcpConfig({ mcpServers: { gh: { url: 'https://mcp.example/mcp', oauth: { clientId: 'cid', issuer: 'https://auth.example' } } } }, options);
    expect(server).toMatchObject({ oauth: { clientId: 'cid', issuer: 'https://auth.example' } });
    expect(() => parseMcpConfig({ mcpServers: { gh: { url: 'https://mcp.example/mcp', oauth: { issuer: 'https://auth.example' } } } }, options)).toThrow(
      /"oauth.issuer" applies to a pre-registered client: needs "clientId" beside it/,
    );
  });

  test('false turns it off; absent leaves the default', () => {
    const servers = parseMcpConfig({ mcpServers: { a: { url: 'https://a.example/mcp', oauth: false }, b: { url: 'https://b.example/mcp' } } }, options);
    expect(servers[0]).toMatchObject({ oauth: false });
    expect(servers[1]).not.toHaveProperty('oauth');
  });

  test.each([
    [{ oauth: { clientSecret: 'x' } }, /"oauth.clientSecret" needs "clientId"/],
    [{ oauth: { clientId: 3 } }, /"oauth.clientId" must be a string/],
    [{ oauth: { scopes: 'repo' } }, /"oauth.scopes" must be an array/],
    [{ oauth: { redirectPort: 70000 } }, /"oauth.redirectPort" must be a port/],
    [{ oauth: { clientMetadataUrl: 'http://insecure.example/cimd.json' } }, /"oauth.clientMetadataUrl" must be an https URL/],
    [{ oauth: { clientID: 'typo' } }, /"oauth" has unknown keys "clientID"/],
    [{ oauth: { clientId: 'c', clientSecret: '${UNSET_VAR}' } }, /"oauth.clientSecret" uses environment variable "UNSET_VAR"/],
  ])('refuses %j', (extra, message) => {
    expect(() => parseMcpConfig({ mcpServers: { s: { url: 'https://s.example/mcp', ...extra } } }, options)).toThrow(message);
  });

  test('a stdio server cannot have one', () => {
    expect(() => parseMcpConfig({ mcpServers: { s: { command: 'x', oauth: {} } } }, options)).toThrow(/"oauth" applies only to HTTP servers/);
  });

  test('client credentials: a ${VAR} secret (basic or post), a secret file, a private key file or a ${VAR} key; the secrets are server secrets', () => {
    const env = { ...options.env, PEM: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----' };
    const servers = parseMcpConfig(
      {
        mcpServers: {
          a: { url: 'https://a.example/mcp', oauth: { grant: 'client_credentials', clientId: 'fleet', clientSecret: '${SECRET}', tokenEndpointAuthMethod: 'client_secret_post', scopes: ['read'] } },
          b: { url: 'https://b.example/mcp', oauth: { grant: 'client_credentials', clientId: 'fleet', clientSecretFile: '/run/secrets/fleet' } },
          c: { url: 'https://c.example/mcp', oauth: { grant: 'client_credentials', clientId: 'fleet', privateKeyFile: '/etc/mcp/fleet.pem', signingAlgorithm: 'ES256', issuer: 'https://auth.example' } },
          d: { url: 'https://d.example/mcp', oauth: { grant: 'client_credentials', clientId: 'fleet', privateKey: '${PEM}' } },
        },
      },
      { ...options, env },
    );
    expect(servers.map((server) => (server.transport === 'stdio' ? undefined : server.oauth))).toEqual([
      { grant: 'client_credentials', clientId: 'fleet', clientSecret: 'client-secret-value', tokenEndpointAuthMethod: 'client_secret_post', scopes: ['read'] },
      { grant: 'client_credentials', clientId: 'fleet', clientSecretFile: '/run/secrets/fleet' },
      { grant: 'client_credentials', clientId: 'fleet', privateKeyFile: '/etc/mcp/fleet.pem', signingAlgorithm: 'ES256', issuer: 'https://auth.example' },
      { grant: 'client_credentials', clientId: 'fleet', privateKey: env.PEM },
    ]);
    expect(servers[0] && serverSecrets(servers[0])).toContain('client-secret-value');
    expect(servers[3] && serverSecrets(servers[3])).toContain(env.PEM);
  });

  test.each([
    [{ grant: 'password' }, /"oauth.grant" must be "authorization_code"/],
    [{ grant: 'client_credentials', clientSecretFile: '/s' }, /"oauth.clientId" is required/],
    [{ grant: 'client_credentials', clientId: 'c', clientSecret: 'written-in-the-file' }, /"oauth.clientSecret" must be a \$\{VAR\} reference/],
    [{ grant: 'client_credentials', clientId: 'c', privateKey: '-----BEGIN PRIVATE KEY-----' }, /"oauth.privateKey" must be a \$\{VAR\} reference/],
    [{ grant: 'client_credentials', clientId: 'c' }, /needs exactly one of "clientSecret", "clientSecretFile", "privateKey", "privateKeyFile"/],
    [{ grant: 'client_credentials', clientId: 'c', clientSecret: '${SECRET}', privateKeyFile: '/k.pem' }, /needs exactly one of/],
    [{ grant: 'client_credentials', clientId: 'c', privateKeyFile: '/k.pem', tokenEndpointAuthMethod: 'client_secret_post' }, /"oauth.tokenEndpointAuthMethod" does not apply to a private key/],
    [{ grant: 'client_credentials', clientId: 'c', clientSecretFile: '/s', signingAlgorithm: 'ES256' }, /"oauth.signingAlgorithm" applies only to a private key/],
    [{ grant: 'client_credentials', clientId: 'c', privateKeyFile: '/k.pem', signingAlgorithm: 'HS256' }, /"oauth.signingAlgorithm" must be one of/],
    [{ grant: 'client_credentials', clientId: 'c', clientSecretFile: '/s', redirectPort: 8976 }, /"oauth.redirectPort" does not apply with "grant": "client_credentials"/],
    [{ clientId: 'c', privateKeyFile: '/k.pem' }, /"oauth.privateKeyFile" applies only with "grant": "client_credentials"/],
  ])('client credentials: refuses %j', (oauth, message) => {
    expect(() => parseMcpConfig({ mcpServers: { s: { url: 'https://s.example/mcp', oauth } } }, options)).toThrow(message);
  });

  test('jwt bearer (workload identity): an assertion file, or a ${VAR} assertion, with an optional client ID, scopes and issuer; the assertion is a server secret', () => {
    const env = { ...options.env, WORKLOAD_JWT: 'eyJhbGciOiJSUzI1NiJ9.workload.signature' };
    const servers = parseMcpConfig(
      {
        mcpServers: {
          a: { url: 'https://a.example/mcp', oauth: { grant: 'jwt_bearer', assertionFile: '/var/run/secrets/tokens/mcp' } },
          b: { url: 'https://b.example/mcp', oauth: { grant: 'jwt_bearer', assertion: '${WORKLOAD_JWT}', clientId: 'workload', scopes: ['mcp:read'], issuer: 'https://auth.example' } },
        },
      },
      { ...options, env },
    );
    expect(servers.map((server) => (server.transport === 'stdio' ? undefined : server.oauth))).toEqual([
      { grant: 'jwt_bearer', assertionFile: '/var/run/secrets/tokens/mcp' },
      { grant: 'jwt_bearer', assertion: env.WORKLOAD_JWT, clientId: 'workload', scopes: ['mcp:read'], issuer: 'https://auth.example' },
    ]);
    expect(servers[1] && serverSecrets(servers[1])).toContain(env.WORKLOAD_JWT);
    // A file's path is no secret; its content is never read at load.
    expect(servers[0] && serverSecrets(servers[0])).toEqual([]);
  });

  test.each([
    [{ grant: 'jwt_bearer', assertion: 'eyJhbGciOiJSUzI1NiJ9.written.here' }, /"oauth.assertion" must be a \$\{VAR\} reference to the worker's environment \(or use "assertionFile"\), never the secret itself/],
    [{ grant: 'jwt_bearer', assertion: 'Bearer ${SECRET}' }, /"oauth.assertion" must be a \$\{VAR\} reference/],
    [{ grant: 'jwt_bearer' }, /with "grant": "jwt_bearer" needs exactly one of "assertion", "assertionFile"/],
    [{ grant: 'jwt_bearer', assertion: '${SECRET}', assertionFile: '/t' }, /needs exactly one of "assertion", "assertionFile"/],
    [{ grant: 'jwt_bearer', assertionFile: '' }, /"oauth.assertionFile" must not be empty/],
    [{ grant: 'jwt_bearer', assertion: '${UNSET_VAR}' }, /"oauth.assertion" uses environment variable "UNSET_VAR"/],
    [{ grant: 'jwt_bearer', assertionFile: '/t', clientId: 'c', clientSecret: '${SECRET}' }, /"oauth.clientSecret" does not apply with "grant": "jwt_bearer"/],
    [{ grant: 'jwt_bearer', assertionFile: '/t', clientSecretFile: '/s' }, /"oauth.clientSecretFile" applies only with "grant": "client_credentials"/],
    [{ grant: 'jwt_bearer', assertionFile: '/t', privateKeyFile: '/k.pem' }, /"oauth.privateKeyFile" applies only with "grant": "client_credentials"/],
    [{ grant: 'jwt_bearer', assertionFile: '/t', tokenEndpointAuthMethod: 'client_secret_post' }, /"oauth.tokenEndpointAuthMethod" applies only with "grant": "client_credentials"/],
    [{ grant: 'jwt_bearer', assertionFile: '/t', signingAlgorithm: 'ES256' }, /"oauth.signingAlgorithm" applies only with "grant": "client_credentials"/],
    [{ grant: 'jwt_bearer', assertionFile: '/t', redirectPort: 8976 }, /"oauth.redirectPort" does not apply with "grant": "jwt_bearer"/],
    [{ grant: 'jwt_bearer', assertionFile: '/t', clientMetadataUrl: 'https://host.example/cimd.json' }, /"oauth.clientMetadataUrl" does not apply with "grant": "jwt_bearer"/],
    [{ assertionFile: '/t' }, /"oauth.assertionFile" applies only with "grant": "jwt_bearer"/],
    [{ grant: 'client_credentials', clientId: 'c', clientSecretFile: '/s', assertion: '${SECRET}' }, /"oauth.assertion" applies only with "grant": "jwt_bearer"/],
  ])('jwt bearer: refuses %j', (oauth, message) => {
    expect(() => parseMcpConfig({ mcpServers: { s: { url: 'https://s.example/mcp', oauth } } }, options)).toThrow(message);
  });
});
