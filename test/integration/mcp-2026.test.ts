/**
 * MCP 2026-07-28 end to end: the example weather server (both eras, SDK v2) over stdio and over
 * Streamable HTTP, each behind a tap that records its wire, in a conversation on the real dev server
 * with the real Anthropic SDK against the wire-level fake. The host negotiates 2026-07-28 with both,
 * sends no `initialize` to either (stdio: the era probe runs on a sibling process of its own, and the
 * serving process gets only stateless requests carrying the revision in `_meta`; HTTP: every POST
 * carries it in `MCP-Protocol-Version` and `_meta`, with no session), the model's two tool calls run,
 * and `mcp-host servers` shows the revision. Rule ids (S…) refer to shared/seed/RULES.md.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/client/cli';
import type { ServerRow } from '../../src/client/server-row';
import { readSettings } from '../../src/config/settings';
import type { McpServerConfig } from '../../src/mcp/config';
import type { RecordedRequest, ScriptStep } from '../../src/testing';
import { sendMessageUpdate } from '../../src/workflows/definitions';
import { blocksOf, messagesOf, startConversation } from '../support/loop-helpers';
import { REPO_ROOT } from '../support/repo';
import { startTestWorker, type TestWorker } from '../support/test-worker';
import { startWeatherHttp, WEATHER_MAIN } from '../support/weather-http';

const PROTOCOL_META = 'io.modelcontextprotocol/protocolVersion';
const WIRE_TAP = path.join(REPO_ROOT, 'test/fixtures/wire-tap.cjs');

/** One line the stdio tap saw. */
interface TappedLine {
  dir: 'in' | 'out';
  msg: { method?: string; id?: unknown; params?: { _meta?: Record<string, unknown> } };
}

/** One POST the HTTP tap forwarded. */
interface TappedPost {
  rpcMethod: string | undefined;
  protocolHeader: string | undefined;
  sessionId: string | undefined;
  metaVersion: unknown;
}

/** Every process's stdio wire, by pid. */
function stdioWires(dir: string): Map<number, TappedLine[]> {
  const wires = new Map<number, TappedLine[]>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.jsonl'))) {
    const lines = readFileSync(path.join(dir, file), 'utf8').split('\n').filter((line) => line !== '');
    wires.set(Number(file.slice(0, -'.jsonl'.length)), lines.map((line) => JSON.parse(line) as TappedLine));
  }
  return wires;
}

/** A reverse proxy in front of `upstream` that records each POST's JSON-RPC method and protocol headers. */
async function startHttpTap(upstream: string): Promise<{ url: string; posts: TappedPost[]; close(): Promise<void> }> {
  const target = new URL(upstream);
  const posts: TappedPost[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') {
        const message = JSON.parse(body.toString('utf8')) as TappedLine['msg'];
        posts.push({
          rpcMethod: message.method,
          protocolHeader: req.headers['mcp-protocol-version'] as string | undefined,
          sessionId: req.headers['mcp-session-id'] as string | undefined,
          metaVersion: message.params?._meta?.[PROTOCOL_META],
        });
      }
      const forward = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('MCP 2026-07-28 end to end: the weather server over stdio and Streamable HTTP', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-2026-'));
  let weatherHttp: { child: ChildProcess; url: string } | undefined;
  let tap: Awaited<ReturnType<typeof startHttpTap>> | undefined;
  let w: TestWorker | undefined;
  let stdioServer: McpServerConfig;
  let httpServer: McpServerConfig;

  beforeAll(async () => {
    weatherHttp = await startWeatherHttp();
    tap = await startHttpTap(weatherHttp.url);
    stdioServer = {
      name: 'weather_stdio',
      transport: 'stdio',
      command: process.execPath,
      args: [WIRE_TAP, process.execPath, '--import', 'tsx', WEATHER_MAIN],
      env: { WIRE_TAP_DIR: dir },
      cwd: REPO_ROOT,
      tools: {},
    };
    httpServer = { name: 'weather_http', transport: 'http', url: tap.url, headers: {}, tools: {} };
    w = await startTestWorker({ servers: [stdioServer, httpServer] });
  });
  afterAll(async () => {
    await w?.stop();
    await tap?.close();
    weatherHttp?.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test('a turn calls get_weather on both servers (both results in one user message, S12); both speak 2026-07-28 with no initialize', async () => {
    const worker = w as TestWorker;
    const callBoth: ScriptStep = {
      kind: 'respond',
      respond: (request: RecordedRequest) => {
        const names = ((request.body as { tools: Array<{ name: string; description?: string }> }).tools ?? []).map((tool) => tool.name);
        const stdioTool = names.find((name) => name.includes('weather_stdio')) ?? names[0] ?? 'get_weather';
        const httpTool = names.find((name) => name.includes('weather_http')) ?? names[1] ?? 'get_weather';
        return {
          kind: 'message',
          content: [
            { type: 'tool_use', id: 'toolu_2026stdio01', name: stdioTool, input: { city: '北京' } },
            { type: 'tool_use', id: 'toolu_2026http001', name: httpTool, input: { city: '上海' } },
          ],
          stop_reason: 'tool_use',
        };
      },
    };
    worker.fake.enqueue(callBoth, { kind: 'message', content: [{ type: 'text', text: '北京晴，上海多云。' }], stop_reason: 'end_turn' });
    const handle = await startConversation(worker, {}, 'mcp-2026');
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['北京和上海今天天气怎么样？'] });
    expect(turn.text).toBe('北京晴，上海多云。');

    // Both tools are offered under distinct names (the same tool on two servers), and both ran.
    const requests = worker.fake.requests;
    const offered = (requests[0]?.body as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(offered).toHaveLength(2);
    const messages = messagesOf(requests[1]);
    const results = blocksOf(messages[messages.length - 1]).filter((block) => block.type === 'tool_result');
    expect(results.map((block) => ('tool_use_id' in block ? block.tool_use_id : undefined))).toEqual(['toolu_2026stdio01', 'toolu_2026http001']);
    const texts = results.map((block) => JSON.stringify('content' in block ? block.content : null));
    expect(texts[0]).toContain('北京');
    expect(texts[1]).toContain('上海');
    expect(results.every((block) => !('is_error' in block) || block.is_error !== true)).toBe(true);

    // The negotiated revision, as the worker's pool holds it.
    expect(worker.mcp.protocol('weather_stdio')).toEqual({ version: '2026-07-28', era: 'modern', source: 'probed' });
    expect(worker.mcp.protocol('weather_http')).toEqual({ version: '2026-07-28', era: 'modern', source: 'probed' });

    // stdio: no process was sent initialize; the serving process (the pool's pid) got only requests
    // carrying 2026-07-28 in _meta, tools/list and tools/call among them; the probe went to a sibling.
    const wires = stdioWires(dir);
    const incoming = (pid: number): TappedLine['msg'][] => (wires.get(pid) ?? []).filter((line) => line.dir === 'in').map((line) => line.msg);
    for (const pid of wires.keys()) expect(incoming(pid).map((msg) => msg.method)).not.toContain('initialize');
    const servingTap = [...wires.keys()].find((pid) => incoming(pid).some((msg) => msg.method === 'tools/call'));
    expect(servingTap).toBeDefined();
    const served = incoming(servingTap as number);
    expect(served.map((msg) => msg.method)).toEqual(expect.arrayContaining(['tools/list', 'tools/call']));
    for (const msg of served.filter((m) => m.id !== undefined)) expect(msg.params?._meta?.[PROTOCOL_META]).toBe('2026-07-28');
    const probes = [...wires.keys()].filter((pid) => pid !== servingTap);
    expect(probes).toHaveLength(1);
    expect(incoming(probes[0] as number).map((msg) => msg.method)).toEqual(['server/discover']);

    // HTTP: no initialize, no session; every POST names 2026-07-28 in its header and its _meta.
    const posts = (tap as NonNullable<typeof tap>).posts;
    expect(posts.map((post) => post.rpcMethod)).not.toContain('initialize');
    expect(posts.map((post) => post.rpcMethod)).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']));
    for (const post of posts) {
      expect(post).toMatchObject({ protocolHeader: '2026-07-28', sessionId: undefined });
      if (post.rpcMethod !== undefined && !post.rpcMethod.startsWith('notifications/')) expect(post.metaVersion).toBe('2026-07-28');
    }
  }, 120_000);

  test('mcp-host servers shows 2026-07-28 for both', async () => {
    const config = path.join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          weather_stdio: { command: stdioServer.transport === 'stdio' ? stdioServer.command : '', args: stdioServer.transport === 'stdio' ? stdioServer.args : [], env: { WIRE_TAP_DIR: dir }, cwd: REPO_ROOT },
          weather_http: { url: (tap as NonNullable<typeof tap>).url },
        },
      }),
    );
    const out: string[] = [];
    const code = await runCli(['servers', '--json'], readSettings({ MCP_CONFIG: config, MCP_HOST_OAUTH_STORE: path.join(dir, 'tokens.json') }), (text) => out.push(text), () => undefined);
    expect(code).toBe(0);
    const rows = JSON.parse(out.join('\n')) as ServerRow[];
    expect(rows.map((row) => [row.name, row.health, row.protocol?.version, row.protocol?.era, row.serverInfo?.name])).toEqual([
      ['weather_stdio', 'connected', '2026-07-28', 'modern', 'weather-server'],
      ['weather_http', 'connected', '2026-07-28', 'modern', 'weather-server'],
    ]);
  }, 60_000);
});
