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
});
