import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { toolCatalogue } from '../../src/client/tool-catalogue';
import type { UnavailableServer } from '../../src/mcp/tool-catalog';
import { weatherServer } from '../support/repo';
import { writeMcpConfig } from '../support/worker-process';

/**
 * `mcp-host tools` names a server it could not list and why (issue 12: a remote server whose OAuth
 * login is missing is reported clearly), while the other servers' tools are still listed.
 */
describe('toolCatalogue', () => {
  let protectedServer: http.Server;
  let url: string;
  let store: string;
  const saved = process.env.MCP_HOST_OAUTH_STORE;

  beforeAll(async () => {
    // A remote MCP server that wants a bearer token for everything (RFC 9728 resource metadata named).
    protectedServer = http.createServer((_req, res) => {
      const { port } = protectedServer.address() as AddressInfo;
      res.writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource"`,
        'content-type': 'application/json',
      });
      res.end('{"error":"invalid_token"}');
    });
    await new Promise<void>((resolve) => protectedServer.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(protectedServer.address() as AddressInfo).port}/mcp`;
    store = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-oauth-store-'));
    process.env.MCP_HOST_OAUTH_STORE = path.join(store, 'tokens.json');
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env.MCP_HOST_OAUTH_STORE;
    else process.env.MCP_HOST_OAUTH_STORE = saved;
    await new Promise((resolve) => protectedServer.close(resolve));
    fs.rmSync(store, { recursive: true, force: true });
  });

  it('lists the reachable servers and reports the one that needs an OAuth login', async () => {
    const config = writeMcpConfig([weatherServer(), { name: 'remote', transport: 'http', url, headers: {}, tools: {} }]);
    const unavailable: UnavailableServer[] = [];
    const rows = await toolCatalogue(config, () => undefined, (server) => unavailable.push(server));
    expect(rows.map((r) => r.claudeName)).toContain('get_weather');
    expect(rows.some((r) => r.server === 'remote')).toBe(false);
    expect(unavailable).toEqual([{ server: 'remote', reason: expect.stringContaining('mcp-host login remote') }]);
  }, 60_000);
});
