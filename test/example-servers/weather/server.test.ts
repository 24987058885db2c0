import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ModernClient,
  ProtocolError,
  StreamableHTTPClientTransport as ModernHttpTransport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { lookupWeather } from '../../../src/example-servers/weather/cities';
import { exchangeHttp, exchangeStdio, WIRE_FILE, type Wire } from '../../fixtures/weather-wire';
import { closeStdioClient } from '../../support/close-stdio-client';

const ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(ROOT, 'src/example-servers/weather/main.ts');
const LISTENING = /weather-server listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/;
const MODERN = '2026-07-28';
/** What the server answered 2025 clients with on the v1 SDK, recorded (see weather-wire.ts). */
const WIRE = JSON.parse(fs.readFileSync(WIRE_FILE, 'utf8')) as Wire;
/** The two ways a 2026-07-28 client connects: probing with `server/discover`, or pinned to the revision. */
const MODERN_MODES: Array<[string, VersionNegotiationMode]> = [
  ['probing (auto)', 'auto'],
  ['pinned', { pin: MODERN }],
];

const GET_WEATHER = {
  name: 'get_weather',
  description: '根据城市名查询实时天气',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', description: '城市名，如北京' } },
    required: ['city'],
  },
};

function newClient(): Client {
  return new Client({ name: 'weather-server-test', version: '1.0.0' });
}

/** A v2 SDK client negotiating the 2026-07-28 revision (no `initialize`). */
function newModernClient(mode: VersionNegotiationMode): ModernClient {
  return new ModernClient({ name: 'weather-server-test', version: '1.0.0' }, { versionNegotiation: { mode } });
}

/** Spawns main.ts in HTTP mode on a free port and resolves with the URL it prints. */
function startHttpServer(child: ChildProcess): Promise<URL> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no listening line within 20s; stderr:\n${stderr}`)), 20_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = LISTENING.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(new URL(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${String(code)} before listening; stderr:\n${stderr}`));
    });
  });
}

function exitCode(child: ChildProcess, timeoutMs = 10_000): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('child did not exit in time')), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

function killIfAlive(child: ChildProcess | undefined): void {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone, as it should be.
  }
}

/** The assertions both transports must pass: the seed's wire, through the real SDK client. */
async function expectSeedBehaviour(client: Client): Promise<void> {
  expect(client.getServerVersion()).toEqual({ name: 'weather-server', version: '0.3.0' });
  expect(client.getServerCapabilities()).toEqual({ tools: {} });

  const listed = await client.listTools();
  expect(listed.tools).toEqual([GET_WEATHER]);
  expect(listed.nextCursor).toBeUndefined();

  await expect(client.callTool({ name: 'get_weather', arguments: { city: '北京' } })).resolves.toEqual({
    content: [{ type: 'text', text: '北京今天晴，25°C' }],
    isError: false,
  });
  await expect(client.callTool({ name: 'get_weather', arguments: { city: '北进' } })).resolves.toEqual({
    content: [{ type: 'text', text: "找不到城市：北进（是否想输入'北京'？）" }],
    isError: true,
  });
}

/** The same tool, results and errors for a 2026-07-28 client (whose results also carry `_meta`). */
async function expectModernBehaviour(client: ModernClient): Promise<void> {
  expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
  expect(client.getServerVersion()).toEqual({ name: 'weather-server', version: '0.3.0' });
  expect(client.getServerCapabilities()).toEqual({ tools: {} });

  const listed = await client.listTools();
  expect(listed.tools).toEqual([GET_WEATHER]);
  expect(listed.nextCursor).toBeUndefined();

  const found = await client.callTool({ name: 'get_weather', arguments: { city: '北京' } });
  expect([found.content, found.isError]).toEqual([[{ type: 'text', text: '北京今天晴，25°C' }], false]);
  const missing = await client.callTool({ name: 'get_weather', arguments: { city: '北进' } });
  expect([missing.content, missing.isError]).toEqual([[{ type: 'text', text: "找不到城市：北进（是否想输入'北京'？）" }], true]);

  const bad = await modernRpcError(client.callTool({ name: 'get_weather', arguments: { town: '北京' } }));
  expect([bad.code, bad.message]).toEqual([-32602, 'Invalid params']);
  const unknown = await modernRpcError(client.callTool({ name: 'get_forecast', arguments: { city: '北京' } }));
  expect([unknown.code, unknown.message]).toEqual([-32602, 'Unknown tool: get_forecast']);
}

async function modernRpcError(promise: Promise<unknown>): Promise<ProtocolError> {
  try {
    await promise;
  } catch (error: unknown) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('expected a JSON-RPC error, got a result');
}

/** Resolves with the JSON-RPC error a call is rejected with. */
async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error: unknown) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('expected a JSON-RPC error, got a result');
}

describe('lookupWeather', () => {
  it('answers the seed cities with the seed text', () => {
    expect(lookupWeather('北京')).toEqual({ ok: true, text: '北京今天晴，25°C' });
    expect(lookupWeather('上海')).toEqual({ ok: true, text: '上海今天多云，22°C' });
  });

  it.each(['广州', '深圳', '杭州', '成都', '南京', '武汉', '西安', '重庆'])('knows %s', (city) => {
    const result = lookupWeather(city);
    expect(result.ok).toBe(true);
    expect(result.text).toMatch(new RegExp(`^${city}今天.+，-?\\d+°C$`));
  });

  it('trims whitespace and ignores a trailing 市', () => {
    expect(lookupWeather('  北京 ')).toEqual({ ok: true, text: '北京今天晴，25°C' });
    expect(lookupWeather('北京市')).toEqual({ ok: true, text: '北京今天晴，25°C' });
    expect(lookupWeather(' 上海市\n')).toEqual({ ok: true, text: '上海今天多云，22°C' });
  });

  it('accepts English names, case-insensitively', () => {
    expect(lookupWeather('Beijing')).toEqual(lookupWeather('北京'));
    expect(lookupWeather('SHANGHAI')).toEqual(lookupWeather('上海'));
    expect(lookupWeather(' chongqing ')).toEqual(lookupWeather('重庆'));
    expect(lookupWeather("Xi'an")).toEqual(lookupWeather('西安'));
    expect(lookupWeather('xian')).toEqual(lookupWeather('西安'));
  });

  it('suggests the closest Chinese city for a typo', () => {
    expect(lookupWeather('北进')).toEqual({ ok: false, text: "找不到城市：北进（是否想输入'北京'？）" });
    expect(lookupWeather(' 北进 ')).toEqual({ ok: false, text: "找不到城市：北进（是否想输入'北京'？）" });
    expect(lookupWeather('上诲')).toEqual({ ok: false, text: "找不到城市：上诲（是否想输入'上海'？）" });
    expect(lookupWeather('Bejing')).toEqual({ ok: false, text: "找不到城市：Bejing（是否想输入'北京'？）" });
    expect(lookupWeather('shangai')).toEqual({ ok: false, text: "找不到城市：shangai（是否想输入'上海'？）" });
  });

  it('makes no suggestion when nothing is close', () => {
    expect(lookupWeather('纽约')).toEqual({ ok: false, text: '找不到城市：纽约' });
    expect(lookupWeather('London')).toEqual({ ok: false, text: '找不到城市：London' });
    expect(lookupWeather('')).toEqual({ ok: false, text: '找不到城市：' });
  });
});

describe('weather server over stdio', () => {
  let client: Client | undefined;
  let transport: StdioClientTransport | undefined;

  beforeAll(async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', MAIN],
      cwd: ROOT,
      stderr: 'pipe',
    });
    client = newClient();
    await client.connect(transport);
  });

  afterAll(async () => {
    await closeStdioClient(client, transport);
  });

  it('speaks the seed protocol', async () => {
    await expectSeedBehaviour(client!);
  });

  it('answers a malformed call with JSON-RPC -32602, not a tool error', async () => {
    const bad = await rpcError(client!.callTool({ name: 'get_weather', arguments: { town: '北京' } }));
    expect(bad.code).toBe(-32602);
    expect(bad.message).toContain('Invalid params');

    const unknown = await rpcError(client!.callTool({ name: 'get_forecast', arguments: { city: '北京' } }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain('Unknown tool: get_forecast');
  });
});

describe('weather server process', () => {
  it('exits with code 0 when its stdin closes', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (stderr += chunk));
      // Wait until it is serving, so the close is seen by the server rather than by node's startup.
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (stderr.includes('ready on stdio')) resolve();
          else setTimeout(check, 50);
        };
        check();
      });
      child.stdin.end();
      await expect(exitCode(child)).resolves.toBe(0);
    } finally {
      killIfAlive(child);
    }
  });
});

describe('weather server over stdio, 2025 wire', () => {
  it('answers the recorded v1-SDK exchange byte for byte', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const answers = await exchangeStdio(
        child,
        WIRE.stdio.map((exchange) => exchange.send),
      );
      expect(answers).toEqual(WIRE.stdio.map((exchange) => exchange.receive));
      child.stdin.end();
      await expect(exitCode(child)).resolves.toBe(0);
    } finally {
      killIfAlive(child);
    }
  });
});

describe('weather server over stdio, 2026-07-28', () => {
  it.each(MODERN_MODES)('serves a 2026 client, %s, with no initialize', async (_name, mode) => {
    const transport = new ModernStdioTransport({ command: process.execPath, args: ['--import', 'tsx', MAIN], cwd: ROOT, stderr: 'pipe' });
    const client = newModernClient(mode);
    try {
      await client.connect(transport);
      await expectModernBehaviour(client);
    } finally {
      const pid = transport.pid;
      await client.close();
      // close() ends stdin and escalates itself; this only guards against a leak past the test.
      if (pid !== null) killPid(pid);
    }
  });

  it('answers server/discover as its first message', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const envelope = {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      const [answer] = await exchangeStdio(child, [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } })]);
      expect(JSON.parse(answer!)).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { supportedVersions: [MODERN], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'weather-server', version: '0.3.0' } } },
      });
      child.stdin.end();
      await expect(exitCode(child)).resolves.toBe(0);
    } finally {
      killIfAlive(child);
    }
  });
});

describe('weather server over Streamable HTTP', () => {
  let child: ChildProcess | undefined;
  let url: URL;

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--http', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await startHttpServer(child);
  });

  afterAll(async () => {
    if (child === undefined) return;
    try {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exitCode(child);
    } finally {
      killIfAlive(child);
    }
  });

  it('prints a real port for --http 0', () => {
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(url.pathname).toBe('/mcp');
  });

  it('speaks the seed protocol in a stateful session', async () => {
    const transport = new StreamableHTTPClientTransport(url);
    const client = newClient();
    try {
      await client.connect(transport);
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      await expectSeedBehaviour(client);
      const bad = await rpcError(client.callTool({ name: 'get_weather', arguments: {} }));
      expect(bad.code).toBe(-32602);
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  });

  it('keeps sessions apart and rejects an unknown session with 404', async () => {
    const first = newClient();
    const second = newClient();
    const firstTransport = new StreamableHTTPClientTransport(url);
    const secondTransport = new StreamableHTTPClientTransport(url);
    try {
      await first.connect(firstTransport);
      await second.connect(secondTransport);
      expect(firstTransport.sessionId).not.toBe(secondTransport.sessionId);
      await expect(second.callTool({ name: 'get_weather', arguments: { city: '上海' } })).resolves.toEqual({
        content: [{ type: 'text', text: '上海今天多云，22°C' }],
        isError: false,
      });
    } finally {
      await first.close();
      await second.close();
    }
    const response = await post(url, { 'mcp-session-id': 'no-such-session' }, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(response.status).toBe(404);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const response = await post(url, { host: 'evil.example' }, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(response.status).toBe(403);
  });

  it('answers the recorded v1-SDK session byte for byte', async () => {
    await expect(exchangeHttp(url, WIRE.http)).resolves.toEqual(WIRE.http);
    for (const exchange of WIRE.initialize) {
      await expect(exchangeHttp(url, [exchange])).resolves.toEqual([exchange]);
    }
  });

  it('still opens a session (Mcp-Session-Id) for a 2025 client of the v2 SDK', async () => {
    const transport = new ModernHttpTransport(url);
    const client = new ModernClient({ name: 'weather-server-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      await expect(client.callTool({ name: 'get_weather', arguments: { city: '北京' } })).resolves.toEqual({
        content: [{ type: 'text', text: '北京今天晴，25°C' }],
        isError: false,
      });
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  });

  it.each(MODERN_MODES)('serves a 2026 client, %s, with no initialize and no session', async (_name, mode) => {
    const transport = new ModernHttpTransport(url);
    const client = newModernClient(mode);
    try {
      await client.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      await expectModernBehaviour(client);
    } finally {
      await client.close();
    }
  });

  it('exits with code 0 on SIGTERM', async () => {
    child!.kill('SIGTERM');
    await expect(exitCode(child!)).resolves.toBe(0);
  });
});

/** A raw POST, with headers fetch would not let us set (Host). */
function post(url: URL, headers: http.OutgoingHttpHeaders, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        // No keep-alive socket left behind for jest to wait on.
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}
