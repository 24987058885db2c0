/** Which values of a server's config count as secrets when error text is redacted. */
import { serverSecrets } from '../../../src/mcp/config/server-secrets';

describe('serverSecrets', () => {
  test('a stdio server: every env value', () => {
    expect(serverSecrets({ name: 's', transport: 'stdio', command: 'x', args: ['--flag'], env: { TOKEN: 'tok-1', LOG: '/tmp/a.log', EMPTY: '' }, tools: {} })).toEqual([
      'tok-1',
      '/tmp/a.log',
    ]);
  });

  test('an HTTP server: header values and their credentials, the URL user and password (decoded too) and query values', () => {
    const secrets = serverSecrets({
      name: 'h',
      transport: 'http',
      url: 'https://svc%40corp:p%2Fss@mcp.example.com/mcp?token=t-123&region=eu',
      headers: { Authorization: 'Bearer hdr-456', 'X-Tenant': 'acme-corp' },
      tools: {},
    });
    expect(secrets).toEqual(['Bearer hdr-456', 'hdr-456', 'acme-corp', 'svc%40corp', 'p%2Fss', 'svc@corp', 'p/ss', 't-123', 'eu']);
  });

  test('a URL that does not parse gives no URL secrets', () => {
    expect(serverSecrets({ name: 'h', transport: 'sse', url: 'not a url', headers: {}, tools: {} })).toEqual([]);
  });
});
