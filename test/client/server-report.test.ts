/**
 * `mcp-host servers` against real servers, no SDK mocks: the repo's weather server over stdio and
 * Streamable HTTP (both eras; pinned to 2025-06-18 once), a stdio server that speaks only
 * 2025-06-18 with no SDK, server-everything (resources, prompts, a tools filter; over HTTP in legacy
 * SSE mode, so Streamable HTTP falls back), one whose process exits at once, and OAuth: one that
 * wants a login nobody ran, one with tokens in the store. Secrets in an env, headers and a URL query
 * appear in neither output.
 */
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { renderServers } from '../../src/client/render-servers';
import { serverReport } from '../../src/client/server-report';
import type { ServerRow } from '../../src/client/server-row';
import { OAuthTokenStore } from '../../src/mcp/oauth/token-store';
import { binOf, startEverythingHttp, type EverythingHttp } from '../fixtures/reference-servers';
import { REPO_ROOT } from '../support/repo';
import { startWeatherHttp, WEATHER_MAIN as WEATHER } from '../support/weather-http';

const LEGACY = path.join(REPO_ROOT, 'test/fixtures/legacy-wire-server.cjs');
const EVERYTHING = binOf('@modelcontextprotocol/server-everything');
const SECRETS = { env: 'stdio-env-secret-4711', header: 'header-secret-0815', bearer: 'bearer-secret-9999', query: 'query-secret-1234' };

/** A remote server that wants a bearer token for everything (RFC 9728 metadata named). */
async function startProtectedServer(): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((_req, res) => {
    const { port } = server.address() as AddressInfo;
    res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource"`, 'content-type': 'application/json' });
    res.end('{"error":"invalid_token"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

function writeConfig(dir: string, mcpServers: Record<string, unknown>): string {
  const file = path.join(dir, 'mcp.json');
  fs.writeFileSync(file, JSON.stringify({ mcpServers }, null, 2));
  return file;
}

function row(rows: readonly ServerRow[], name: string): ServerRow {
  const found = rows.find((r) => r.name === name);
  if (found === undefined) throw new Error(`no row for ${name}`);
  return found;
}

describe('serverReport', () => {
  let dir: string;
  let weatherHttp: { child: ChildProcess; url: string };
  let everythingSse: EverythingHttp;
  let protectedServer: { server: http.Server; url: string };
  let store: OAuthTokenStore;
  let rows: ServerRow[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-servers-'));
    [weatherHttp, everythingSse, protectedServer] = await Promise.all([startWeatherHttp(), startEverythingHttp('sse'), startProtectedServer()]);
    store = new OAuthTokenStore(path.join(dir, 'tokens.json'));
    // Tokens for the weather server over HTTP (which never asks for them): it counts as logged in.
    await store.update('weather-logged-in', weatherHttp.url, (entry) => ({ ...entry, tokens: { access_token: 'stored-token-31337', token_type: 'Bearer' }, savedAt: Date.now() }));
    const stdio = (args: string[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({ command: process.execPath, args, cwd: REPO_ROOT, ...extra });
    const config = writeConfig(dir, {
      'weather-stdio': stdio(['--import', 'tsx', WEATHER, `--unused=${SECRETS.env}`], { env: { WEATHER_TOKEN: SECRETS.env } }),
      'weather-http': { type: 'http', url: `${weatherHttp.url}?token=${SECRETS.query}`, headers: { 'X-Api-Key': SECRETS.header } },
      'weather-own-auth': { type: 'http', url: weatherHttp.url, headers: { Authorization: `Bearer ${SECRETS.bearer}` } },
      'weather-logged-in': { type: 'http', url: weatherHttp.url },
      'weather-pinned': stdio(['--import', 'tsx', WEATHER], { protocolVersion: '2025-06-18' }),
      legacy: stdio([LEGACY]),
      everything: stdio([EVERYTHING, 'stdio'], { tools: { deny: ['echo', 'no-such-tool'] } }),
      'everything-sse': { type: 'http', url: everythingSse.url },
      'needs-login': { type: 'http', url: protectedServer.url },
      broken: stdio(['-e', 'process.exit(3)']),
    });
    rows = await serverReport(config, { store });
  }, 120_000);

  afterAll(async () => {
    weatherHttp?.child.kill('SIGKILL');
    await everythingSse?.stop();
    await new Promise((resolve) => protectedServer?.server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('one row per server, in config order', () => {
    expect(rows.map((r) => r.name)).toEqual([
      'weather-stdio',
      'weather-http',
      'weather-own-auth',
      'weather-logged-in',
      'weather-pinned',
      'legacy',
      'everything',
      'everything-sse',
      'needs-login',
      'broken',
    ]);
  });

  test('the weather server speaks 2026-07-28 over stdio and Streamable HTTP', () => {
    for (const name of ['weather-stdio', 'weather-http']) {
      expect(row(rows, name)).toMatchObject({
        health: 'connected',
        protocol: { version: '2026-07-28', era: 'modern', source: 'probed' },
        serverInfo: { name: 'weather-server', version: '0.3.0' },
        capabilities: ['tools'],
        tools: { count: 1 },
        auth: 'none',
      });
    }
    const stdio = row(rows, 'weather-stdio');
    expect(stdio).toMatchObject({ transport: 'stdio', command: process.execPath, args: ['--import', 'tsx', WEATHER, '--unused=[redacted]'] });
    expect(stdio.resources).toBeUndefined();
    expect(stdio.prompts).toBeUndefined();
    expect(row(rows, 'weather-http')).toMatchObject({ transport: 'http', sseFallback: false, url: `${weatherHttp.url}?token=[redacted]` });
  });

  test('a pinned revision is spoken as pinned; a 2025-only server is legacy', () => {
    expect(row(rows, 'weather-pinned')).toMatchObject({ health: 'connected', protocol: { version: '2025-06-18', era: 'legacy', source: 'pinned' }, tools: { count: 1 } });
    expect(row(rows, 'legacy')).toMatchObject({
      health: 'connected',
      protocol: { version: '2025-06-18', era: 'legacy', source: 'probed' },
      serverInfo: { name: 'legacy-wire', version: '1.0.0' },
      capabilities: ['tools'],
      tools: { count: 5 },
      auth: 'none',
    });
  });

  test('server-everything: resources, templates and prompts counted; tools kept back by the filter noted', () => {
    const everything = row(rows, 'everything');
    expect(everything.health).toBe('connected');
    expect(everything.capabilities).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts', 'logging', 'completions']));
    for (const cell of [everything.resources, everything.resourceTemplates, everything.prompts]) expect(cell).toEqual({ count: expect.any(Number) });
    const count = (cell: ServerRow['resources']): number => (cell !== undefined && 'count' in cell ? cell.count : 0);
    expect(count(everything.resources)).toBeGreaterThan(0);
    expect(count(everything.resourceTemplates)).toBeGreaterThan(0);
    expect(count(everything.prompts)).toBeGreaterThan(0);
    // `echo` is listed and denied; `no-such-tool` is denied but not listed, so it is not counted.
    expect(everything.tools).toEqual({ count: expect.any(Number), filteredOut: 1 });
  });

  test('a Streamable HTTP entry served by a legacy SSE server shows the fallback', () => {
    expect(row(rows, 'everything-sse')).toMatchObject({ transport: 'http', sseFallback: true, health: 'connected', protocol: { era: 'legacy' }, auth: 'none' });
  });

  test('auth: own Authorization header, tokens in the store, a login nobody ran', () => {
    expect(row(rows, 'weather-own-auth')).toMatchObject({ health: 'connected', auth: 'none' });
    expect(row(rows, 'weather-logged-in')).toMatchObject({ health: 'connected', auth: 'logged in' });
    const needsLogin = row(rows, 'needs-login');
    expect(needsLogin).toMatchObject({ health: 'failing', auth: 'login needed', error: expect.stringContaining('mcp-host login needs-login') });
    expect(needsLogin.protocol).toBeUndefined();
  });

  test('a server whose process exits at once is failing, in one line', () => {
    const broken = row(rows, 'broken');
    expect(broken).toMatchObject({ health: 'failing', auth: 'none', command: process.execPath, args: ['-e', 'process.exit(3)'] });
    expect(broken.error).toMatch(/\S/);
    expect(broken.error).not.toContain('\n');
    expect(broken.tools).toBeUndefined();
  });

  test('no secret appears in the JSON or the human output', () => {
    const outputs = [JSON.stringify(rows, null, 2), renderServers(rows)];
    for (const output of outputs) {
      for (const secret of [...Object.values(SECRETS), 'stored-token-31337']) expect(output).not.toContain(secret);
    }
    const text = renderServers(rows);
    expect(text).toContain(`weather-stdio: connected\n  stdio         ${process.execPath} --import tsx ${WEATHER} '--unused=[redacted]'`);
    expect(text).toContain('  protocol      2026-07-28 (modern, probed)');
    expect(text).toContain('  auth          login needed (run: mcp-host login needs-login)');
    expect(text).toContain('  http→sse      ');
    expect(text).toMatch(/^broken: failing: .+$/m);
  });
});
