import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serverAuthState } from '../../src/client/server-auth';
import type { McpServerConfig } from '../../src/mcp/config';
import { OAuthLoginRequiredError } from '../../src/mcp/oauth/login-required-error';
import type { OAuthServerConfig } from '../../src/mcp/oauth/oauth-config';
import { OAuthTokenStore } from '../../src/mcp/oauth/token-store';

const URL = 'https://mcp.example.com/mcp';

interface HttpFields {
  transport?: 'http' | 'sse';
  url?: string;
  headers?: Record<string, string>;
  oauth?: OAuthServerConfig | false;
}

function http(name: string, extra: HttpFields = {}): McpServerConfig {
  return { name, transport: 'http', url: URL, headers: {}, tools: {}, ...extra };
}

describe('serverAuthState', () => {
  let dir: string;
  let store: OAuthTokenStore;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-auth-state-'));
    store = new OAuthTokenStore(path.join(dir, 'tokens.json'));
    await store.update('github', URL, (entry) => ({ ...entry, tokens: { access_token: 'a-token', token_type: 'Bearer' } }));
    // A registration but no tokens: no login yet.
    await store.update('registered', URL, (entry) => ({ ...entry, client: { client_id: 'c' } }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('stdio, OAuth off, an Authorization header of its own, legacy SSE: none', async () => {
    const stdio: McpServerConfig = { name: 'github', transport: 'stdio', command: 'node', args: [], env: {}, tools: {} };
    await expect(serverAuthState(stdio, undefined, store)).resolves.toBe('none');
    await expect(serverAuthState(http('github', { oauth: false }), undefined, store)).resolves.toBe('none');
    await expect(serverAuthState(http('github', { headers: { authorization: 'Bearer x' } }), undefined, store)).resolves.toBe('none');
    await expect(serverAuthState(http('github', { transport: 'sse' }), undefined, store)).resolves.toBe('none');
  });

  test('tokens stored for the same name and URL: logged in; none stored, or for another URL: none', async () => {
    await expect(serverAuthState(http('github'), undefined, store)).resolves.toBe('logged in');
    await expect(serverAuthState(http('github', { url: 'https://other.example.com/mcp' }), undefined, store)).resolves.toBe('none');
    await expect(serverAuthState(http('registered'), undefined, store)).resolves.toBe('none');
    await expect(serverAuthState(http('unknown'), undefined, store)).resolves.toBe('none');
  });

  test('the client-credentials and JWT-bearer grants, whatever the store holds', async () => {
    await expect(serverAuthState(http('github', { oauth: { grant: 'client_credentials', clientId: 'fleet' } }), undefined, store)).resolves.toBe('client credentials');
    await expect(serverAuthState(http('github', { oauth: { grant: 'jwt_bearer', assertionFile: '/var/run/secrets/tokens/mcp' } }), undefined, store)).resolves.toBe('workload identity');
  });

  test('a connect that failed for want of a login: login needed; another failure does not change the state', async () => {
    await expect(serverAuthState(http('github'), new OAuthLoginRequiredError('github', 'no stored OAuth tokens'), store)).resolves.toBe('login needed');
    await expect(serverAuthState(http('github'), new Error('ECONNREFUSED'), store)).resolves.toBe('logged in');
  });

  test('a store that cannot be read counts as no tokens', async () => {
    const broken = path.join(dir, 'broken.json');
    fs.writeFileSync(broken, 'not json');
    await expect(serverAuthState(http('github'), undefined, new OAuthTokenStore(broken))).resolves.toBe('none');
  });
});
