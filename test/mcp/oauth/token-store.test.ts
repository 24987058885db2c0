import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuthTokenStore } from '../../../src/mcp/oauth/token-store';
import { oauthStorePath } from '../../../src/mcp/oauth/token-store-path';

describe('OAuthTokenStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'oauth-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('keeps entries per server and URL, in a 0600 file in a 0700 directory', async () => {
    const store = new OAuthTokenStore(join(dir, 'nested', 'tokens.json'));
    expect(await store.get('a', 'https://a.example/mcp')).toBeUndefined();
    await store.update('a', 'https://a.example/mcp', (entry) => ({ ...entry, tokens: { access_token: 'tok-a', token_type: 'Bearer' } }));
    expect((await store.get('a', 'https://a.example/mcp'))?.tokens?.access_token).toBe('tok-a');
    // An entry saved for another URL is not this server's.
    expect(await store.get('a', 'https://other.example/mcp')).toBeUndefined();
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    await store.update('a', 'https://a.example/mcp', () => undefined);
    expect(await store.get('a', 'https://a.example/mcp')).toBeUndefined();
  });

  test('concurrent writers (two stores on one file) lose no entry, and leave no lock or temp file', async () => {
    const path = join(dir, 'tokens.json');
    const stores = [new OAuthTokenStore(path), new OAuthTokenStore(path)];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (stores[i % 2] as OAuthTokenStore).update(`s${i}`, 'https://x.example/mcp', (entry) => ({ ...entry, savedAt: i })),
      ),
    );
    const file = JSON.parse(readFileSync(path, 'utf8')) as { servers: Record<string, unknown> };
    expect(Object.keys(file.servers)).toHaveLength(40);
    expect(readdirSync(dir)).toEqual(['tokens.json']);
  });

  test('a corrupt file is reported by path, without its content', async () => {
    const path = join(dir, 'tokens.json');
    writeFileSync(path, '{"servers": {"a": secret-token-value');
    await expect(new OAuthTokenStore(path).get('a', 'u')).rejects.toThrow(/not valid JSON/);
    await expect(new OAuthTokenStore(path).get('a', 'u')).rejects.not.toThrow(/secret-token-value/);
  });
});

describe('oauthStorePath', () => {
  test('MCP_HOST_OAUTH_STORE, else XDG_CONFIG_HOME, else ~/.config', () => {
    expect(oauthStorePath({ MCP_HOST_OAUTH_STORE: '/srv/shared/tokens.json', XDG_CONFIG_HOME: '/x' })).toBe('/srv/shared/tokens.json');
    expect(oauthStorePath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/durable-mcp-host/oauth-tokens.json');
    expect(oauthStorePath({})).toMatch(/\.config\/durable-mcp-host\/oauth-tokens\.json$/);
  });
});
