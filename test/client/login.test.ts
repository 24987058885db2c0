import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { login } from '../../src/client/login';

describe('login', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-host-login-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    [{ grant: 'client_credentials', clientId: 'fleet', clientSecretFile: '/run/secrets/fleet' }, 'uses the client-credentials grant: every worker gets its own tokens with the client\'s credential, no login is needed'],
    [{ grant: 'jwt_bearer', assertionFile: '/var/run/secrets/tokens/mcp' }, 'uses workload identity (the JWT-bearer grant): every worker gets its own tokens with its platform\'s identity token, no login is needed'],
  ])('has nothing to do for a server without a person (%j), and says so before any request', async (oauth, reason) => {
    const mcpConfigPath = join(dir, 'mcp.json');
    writeFileSync(mcpConfigPath, JSON.stringify({ mcpServers: { unattended: { url: 'https://unattended.example/mcp', oauth } } }));
    const out: string[] = [];
    await expect(login({ mcpConfigPath, server: 'unattended', env: { MCP_HOST_OAUTH_STORE: join(dir, 'tokens.json') }, out: (line) => out.push(line) })).rejects.toThrow(
      `server "unattended" ${reason}`,
    );
    expect(out).toEqual([]);
  });
});
