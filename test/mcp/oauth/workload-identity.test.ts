import { auth, AuthorizationServerMismatchError, OAuthError } from '@modelcontextprotocol/client';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workloadIdentityProvider, WorkloadIdentityProvider } from '../../../src/mcp/oauth/workload-identity';
import { openClient } from '../../../src/mcp/transport/open-client';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const MCP_URL = 'https://mcp.example/mcp';
const ISSUER = 'https://auth.example';

/** What the token endpoint answers: a token, or an OAuth error. */
type TokenAnswer = { token: string } | { error: string; description: string };

/** One token request as the authorization server saw it. */
interface SeenTokenRequest {
  body: URLSearchParams;
  authorization: string | null;
}

/**
 * A fake network for the SDK's `auth()`: the MCP server's protected-resource metadata, the
 * authorization server's metadata (the conformance scenario's: jwt-bearer only, `none`, no
 * registration) and its token endpoint answering from `answers` in turn.
 */
function fakeNetwork(answers: TokenAnswer[], issuer = ISSUER): { fetch: (url: string | URL, init?: RequestInit) => Promise<Response>; seen: SeenTokenRequest[] } {
  const seen: SeenTokenRequest[] = [];
  const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = (url: string | URL, init?: RequestInit): Promise<Response> => {
    const href = String(url);
    if (href === 'https://mcp.example/.well-known/oauth-protected-resource/mcp') return Promise.resolve(json({ resource: MCP_URL, authorization_servers: [ISSUER] }));
    if (href === `${ISSUER}/.well-known/oauth-authorization-server`) {
      return Promise.resolve(
        json({
          issuer,
          authorization_endpoint: `${ISSUER}/authorize`,
          token_endpoint: `${ISSUER}/token`,
          response_types_supported: ['code'],
          grant_types_supported: [JWT_BEARER],
          token_endpoint_auth_methods_supported: ['none'],
        }),
      );
    }
    if (href === `${ISSUER}/token` && init?.method === 'POST') {
      // The SDK posts the provider's URLSearchParams as the body.
      seen.push({ body: new URLSearchParams(init.body instanceof URLSearchParams ? init.body : undefined), authorization: new Headers(init.headers).get('authorization') });
      const answer = answers.shift() ?? { error: 'invalid_request', description: 'no answer left' };
      return Promise.resolve('token' in answer ? json({ access_token: answer.token, token_type: 'Bearer', expires_in: 60 }) : json({ error: answer.error, error_description: answer.description }, 400));
    }
    return Promise.resolve(new Response('not found', { status: 404 }));
  };
  return { fetch, seen };
}

describe('WorkloadIdentityProvider', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'workload-identity-'));
    file = join(dir, 'token');
    // The SDK's auth() announces that it will start over after a refusal; the provider stops it.
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    jest.restoreAllMocks();
  });

  test('each token request reads the file afresh (a rotated token is sent), with the jwt-bearer grant and no client authentication', async () => {
    const network = fakeNetwork([{ token: 'access-1' }, { token: 'access-2' }]);
    const provider = new WorkloadIdentityProvider({ server: 'wif', assertion: { file }, baseFetch: network.fetch });
    writeFileSync(file, 'workload-jwt-1\n');
    await expect(auth(provider, { serverUrl: MCP_URL, fetchFn: provider.fetch })).resolves.toBe('AUTHORIZED');
    expect(provider.tokens()?.access_token).toBe('access-1');
    // The platform rotated the token; the access token expired (the next 401 asks again).
    writeFileSync(file, 'workload-jwt-2');
    await expect(auth(provider, { serverUrl: MCP_URL, fetchFn: provider.fetch })).resolves.toBe('AUTHORIZED');
    expect(provider.tokens()?.access_token).toBe('access-2');

    expect(network.seen.map(({ body }) => Object.fromEntries(body))).toEqual([
      { grant_type: JWT_BEARER, assertion: 'workload-jwt-1', resource: MCP_URL },
      { grant_type: JWT_BEARER, assertion: 'workload-jwt-2', resource: MCP_URL },
    ]);
    // token_endpoint_auth_method none, and a workload with no client ID sends none.
    expect(network.seen.map(({ authorization }) => authorization)).toEqual([null, null]);
  });

  test('a configured client ID and scopes are sent; an assertion from the environment is sent as it is', async () => {
    const network = fakeNetwork([{ token: 'access' }]);
    const provider = workloadIdentityProvider('wif', { grant: 'jwt_bearer', assertion: 'env-jwt', clientId: 'workload-7', scopes: ['mcp:read', 'mcp:write'], issuer: ISSUER });
    const fetchFn = (url: string | URL, init?: RequestInit): Promise<Response> => network.fetch(url, init);
    await expect(auth(provider, { serverUrl: MCP_URL, fetchFn })).resolves.toBe('AUTHORIZED');
    expect(Object.fromEntries(network.seen[0]?.body ?? [])).toEqual({ grant_type: JWT_BEARER, assertion: 'env-jwt', client_id: 'workload-7', scope: 'mcp:read mcp:write', resource: MCP_URL });
    expect(provider.clientMetadata).toMatchObject({ grant_types: [JWT_BEARER], token_endpoint_auth_method: 'none', scope: 'mcp:read mcp:write' });
  });

  test.each([
    ['invalid_grant', 'JWT assertion is expired'],
    ['unauthorized_client', 'Client not authorized for JWT-bearer grant'],
    ['invalid_client', 'unknown client'],
    ['invalid_scope', 'Requested scope is not permitted for this grant'],
  ])('a refusal (%s) surfaces as the authorization server gave it, after one token request (no retry, no other grant)', async (code, description) => {
    const network = fakeNetwork([{ error: code, description }, { token: 'must-not-be-asked-for' }]);
    const provider = new WorkloadIdentityProvider({ server: 'wif', assertion: { file }, baseFetch: network.fetch });
    writeFileSync(file, 'workload-jwt');
    const refused = auth(provider, { serverUrl: MCP_URL, fetchFn: provider.fetch });
    await expect(refused).rejects.toBeInstanceOf(OAuthError);
    await expect(refused).rejects.toMatchObject({ code, message: description });
    expect(network.seen).toHaveLength(1);
    expect(provider.tokens()).toBeUndefined();
  });

  test('an unreadable or empty file fails before any token request, naming the file', async () => {
    const network = fakeNetwork([{ token: 'access' }]);
    const provider = new WorkloadIdentityProvider({ server: 'wif', assertion: { file }, baseFetch: network.fetch });
    await expect(auth(provider, { serverUrl: MCP_URL, fetchFn: provider.fetch })).rejects.toMatchObject({
      type: 'mcp.connect_failed',
      message: `MCP server "wif": cannot read oauth.assertionFile ${JSON.stringify(file)} (ENOENT)`,
    });
    writeFileSync(file, '\n');
    await expect(auth(provider, { serverUrl: MCP_URL, fetchFn: provider.fetch })).rejects.toThrow(/oauth.assertionFile .* is empty/);
    expect(network.seen).toHaveLength(0);
  });

  test('bound to its issuer, the assertion never goes to another authorization server', async () => {
    const network = fakeNetwork([{ token: 'access' }], 'https://elsewhere.example');
    const provider = new WorkloadIdentityProvider({ server: 'wif', assertion: { value: 'workload-jwt' }, issuer: ISSUER, baseFetch: network.fetch });
    await expect(auth(provider, { serverUrl: MCP_URL, fetchFn: provider.fetch, skipIssuerMetadataValidation: true })).rejects.toBeInstanceOf(AuthorizationServerMismatchError);
    expect(network.seen).toHaveLength(0);
  });
});

describe('a worker connecting with workload identity', () => {
  let server: Server;
  let origin: string;
  let tokenRequests: URLSearchParams[];
  let dir: string;

  beforeAll(async () => {
    tokenRequests = [];
    dir = mkdtempSync(join(tmpdir(), 'workload-identity-'));
    // An MCP server that wants a token and an authorization server that refuses the assertion.
    server = createServer((req, res) => {
      const url = req.url ?? '';
      const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      };
      if (url === '/mcp') {
        req.resume();
        send(401, { error: 'unauthorized' }, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` });
      } else if (url === '/.well-known/oauth-protected-resource/mcp') {
        send(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      } else if (url === '/.well-known/oauth-authorization-server') {
        send(200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          response_types_supported: ['code'],
          grant_types_supported: [JWT_BEARER],
          token_endpoint_auth_methods_supported: ['none'],
        });
      } else if (url === '/token') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          tokenRequests.push(new URLSearchParams(body));
          send(400, { error: 'invalid_grant', error_description: 'JWT assertion audience is invalid' });
        });
      } else {
        send(404, { error: 'not_found' });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  test('one refused token request fails the connect with the authorization server\'s error: no second grant, no other transport', async () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'wrong-audience-jwt');
    const lines: string[] = [];
    const connecting = openClient({ name: 'wif', transport: 'http', url: `${origin}/mcp`, headers: {}, tools: {}, oauth: { grant: 'jwt_bearer', assertionFile: file } }, (line) => lines.push(line));
    await expect(connecting).rejects.toBeInstanceOf(OAuthError);
    await expect(connecting).rejects.toMatchObject({ code: 'invalid_grant', message: 'JWT assertion audience is invalid' });
    expect(tokenRequests.map((body) => body.get('grant_type'))).toEqual([JWT_BEARER]);
    expect(lines.filter((line) => line.includes('legacy SSE'))).toEqual([]);
  });
});
