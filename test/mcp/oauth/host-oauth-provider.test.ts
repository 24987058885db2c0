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
    expect(provider.clientMetadata).toMatchObject({
      scope: 'read write',
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      application_type: 'native',
    });
  });

  test('a pre-registered client is bound to oauth.issuer: never used with another authorization server (SEP-2352)', async () => {
    const bound = new HostOAuthProvider({ name: 'a', url: URL_A, oauth: { clientId: 'cid', issuer: 'https://as.example' } }, store);
    expect(await bound.clientInformation({ issuer: 'https://as.example/' })).toEqual({ client_id: 'cid', issuer: 'https://as.example' });
    await expect(bound.clientInformation({ issuer: 'https://other.example' })).rejects.toThrow(
      'MCP server "a" now uses the authorization server https://other.example, but its pre-registered OAuth client belongs to https://as.example (oauth.issuer in mcp.json)',
    );
    // Without oauth.issuer, the first server the SDK binds it to is kept (in memory), so it is not asked again.
    const unbound = new HostOAuthProvider({ name: 'a', url: URL_A, oauth: { clientId: 'cid' } }, store);
    expect(await unbound.clientInformation()).toEqual({ client_id: 'cid' });
    await unbound.saveClientInformation({ client_id: 'cid', issuer: 'https://as.example' });
    expect(await unbound.clientInformation()).toEqual({ client_id: 'cid', issuer: 'https://as.example' });
  });

  test('a worker whose stored registration belongs to another authorization server needs a login, and registers nowhere', async () => {
    await store.update('a', URL_A, (e) => ({
      ...e,
      client: { client_id: 'old-cid', issuer: 'https://old-as.example' },
      tokens: { access_token: 't', token_type: 'Bearer', refresh_token: 'r' },
    }));
    const provider = new HostOAuthProvider({ name: 'a', url: URL_A }, store);
    expect(await provider.clientInformation({ issuer: 'https://old-as.example' })).toMatchObject({ client_id: 'old-cid' });
    await expect(provider.clientInformation({ issuer: 'https://new-as.example' })).rejects.toThrow(
      'MCP server "a" needs an OAuth login (the server now uses the authorization server https://new-as.example, not https://old-as.example): run `mcp-host login a`',
    );
  });

  test('discovery is never reused across authorizations (the server may have moved), only within one', async () => {
    await store.update('a', URL_A, (e) => ({ ...e, tokens: { access_token: 't', token_type: 'Bearer', refresh_token: 'r' } }));
    // A worker discovers afresh on every authorization (refresh included).
    expect(await new HostOAuthProvider({ name: 'a', url: URL_A }, store).discoveryState()).toBeUndefined();

    const provider = new HostOAuthProvider({ name: 'a', url: URL_A }, store, { redirectUrl: 'http://127.0.0.1:5555/callback', onAuthorizationUrl: () => Promise.resolve(undefined) });
    const state = { authorizationServerUrl: 'https://as.example' };
    provider.saveDiscoveryState(state);
    // Not yet redirected: a new authorization discovers afresh.
    expect(await provider.discoveryState()).toBeUndefined();
    provider.saveCodeVerifier('verifier');
    // The redirect leg of this authorization goes back to the server it started at.
    expect(await provider.discoveryState()).toBe(state);
    await provider.saveTokens({ access_token: 'new', token_type: 'Bearer' });
    expect(await provider.discoveryState()).toBeUndefined();
    expect((await store.get('a', URL_A))?.discovery).toBeUndefined();
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
