import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostOAuthProvider } from '../../../src/mcp/oauth/host-oauth-provider';
import { OAuthLoginRequiredError } from '../../../src/mcp/oauth/login-required-error';
import { usesOAuth } from '../../../src/mcp/oauth/oauth-transport';
import { OAuthTokenStore } from '../../../src/mcp/oauth/token-store';

const URL_A = 'https://a.example/mcp';

describe('HostOAuthProvider', () => {
  let dir: string;
  let store: OAuthTokenStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'oauth-provider-'));
    store = new OAuthTokenStore(join(dir, 'tokens.json'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a worker without a login stops the flow before any request, saying what to run', async () => {
    const provider = new HostOAuthProvider({ name: 'a', url: URL_A }, store);
    await expect(provider.discoveryState()).rejects.toThrow(OAuthLoginRequiredError);
    await expect(provider.discoveryState()).rejects.toThrow('MCP server "a" needs an OAuth login (no stored OAuth tokens): run `mcp-host login a`');
    await expect(provider.redirectToAuthorization(new URL('https://as.example/authorize'))).rejects.toMatchObject({ type: 'mcp.auth_required', retryable: false });
  });

  test('a worker reads tokens from the store on every request (a login or another worker’s refresh shows at once)', async () => {
    const provider = new HostOAuthProvider({ name: 'a', url: URL_A }, store);
    expect(await provider.tokens()).toBeUndefined();
    await store.update('a', URL_A, (e) => ({ ...e, tokens: { access_token: 'first', token_type: 'Bearer', refresh_token: 'r1' } }));
    expect((await provider.tokens())?.access_token).toBe('first');
    await new HostOAuthProvider({ name: 'a', url: URL_A }, store).saveTokens({ access_token: 'second', token_type: 'Bearer' });
    const now = await provider.tokens();
    // A refresh answer without a refresh token keeps the old one.
    expect(now).toMatchObject({ access_token: 'second', refresh_token: 'r1' });
  });

  test('an invalidation drops only the tokens this provider used, and says why the login is needed', async () => {
    await store.update('a', URL_A, (e) => ({ ...e, tokens: { access_token: 'old', token_type: 'Bearer', refresh_token: 'r1' } }));
    const stale = new HostOAuthProvider({ name: 'a', url: URL_A }, store);
    await stale.tokens();
    // Another worker refreshed meanwhile: its tokens stay.
    await store.update('a', URL_A, (e) => ({ ...e, tokens: { access_token: 'new', token_type: 'Bearer', refresh_token: 'r2' } }));
    await stale.invalidateCredentials('tokens');
    expect((await store.get('a', URL_A))?.tokens?.access_token).toBe('new');
    const current = new HostOAuthProvider({ name: 'a', url: URL_A }, store);
    await current.tokens();
    await current.invalidateCredentials('tokens');
    expect((await store.get('a', URL_A))?.tokens).toBeUndefined();
    await expect(current.discoveryState()).rejects.toThrow(/refused the stored token.*mcp-host login a/);
  });

  test('a pre-registered client comes from mcp.json and its secret is not copied into the store', async () => {
    const provider = new HostOAuthProvider({ name: 'a', url: URL_A, oauth: { clientId: 'cid', clientSecret: 'very-secret', scopes: ['read', 'write'] } }, store);
    expect(await provider.clientInformation()).toEqual({ client_id: 'cid', client_secret: 'very-secret' });
    await provider.saveClientInformation({ client_id: 'cid', client_secret: 'very-secret' });
    expect(await store.get('a', URL_A)).toBeUndefined();
    expect(provider.clientMetadata).toMatchObject({ scope: 'read write', token_endpoint_auth_method: 'client_secret_basic', grant_types: ['authorization_code', 'refresh_token'] });
  });

  test('interactive: stored tokens are not reused, the URL goes to the user agent and its code is taken once', async () => {
    await store.update('a', URL_A, (e) => ({ ...e, tokens: { access_token: 'stored', token_type: 'Bearer' } }));
    const seen: URL[] = [];
    const provider = new HostOAuthProvider({ name: 'a', url: URL_A }, store, {
      redirectUrl: 'http://127.0.0.1:5555/callback',
      onAuthorizationUrl: (url) => {
        seen.push(url);
        return Promise.resolve(new URLSearchParams({ code: 'the-code', iss: 'https://as.example' }));
      },
    });
    expect(await provider.tokens()).toBeUndefined();
    expect(await provider.clientInformation()).toBeUndefined();
    expect(provider.clientMetadata.redirect_uris).toEqual(['http://127.0.0.1:5555/callback']);
    await provider.redirectToAuthorization(new URL('https://as.example/authorize?x=1'));
    expect(seen).toHaveLength(1);
    expect(provider.takeAuthorizationResponse()?.get('code')).toBe('the-code');
    expect(provider.takeAuthorizationResponse()).toBeUndefined();
  });
});

describe('usesOAuth', () => {
  test('every HTTP server, unless turned off or carrying its own Authorization header', () => {
    expect(usesOAuth({ name: 'a', url: URL_A, headers: {} })).toBe(true);
    expect(usesOAuth({ name: 'a', url: URL_A, headers: { 'X-Api-Key': 'k' } })).toBe(true);
    expect(usesOAuth({ name: 'a', url: URL_A, headers: { authorization: 'Bearer t' } })).toBe(false);
    expect(usesOAuth({ name: 'a', url: URL_A, headers: {}, oauth: false })).toBe(false);
  });
});
