/**
 * The MCP host layer against reference servers no one here wrote: server-everything (stdio, Streamable
 * HTTP, legacy SSE), server-filesystem, server-memory and the Python `mcp-server-time`. Driven through
 * the pool (`McpConnections`), the catalogue (`buildToolCatalog`) and the `callTool` activity in
 * Temporal's mock activity context. Rule ids (S…) refer to shared/seed/RULES.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createCallTool } from '../../src/activities/call-tool';
import type { ToolCallInput, ToolCallOutput } from '../../src/activities/types';
import { findToolRoute, toolRouteEntries } from '../../src/conversation/tool-routes';
import type { ToolCatalog } from '../../src/conversation/types';
import type { McpServerConfig } from '../../src/mcp/config';
import { McpConnections } from '../../src/mcp/mcp-connections';
import type { CallAsker } from '../../src/mcp/server-requests';
import { buildToolCatalog } from '../../src/mcp/tool-catalog';
import { isRunning } from '../fixtures/child-processes';
import { callToolActivity as callTool, failureOf, quietActivityEnvironment } from '../fixtures/mock-activities';
import { everythingServer, filesystemServer, memoryServer, startEverythingHttp, timeServer, type EverythingHttp } from '../fixtures/reference-servers';
import { startSessionHttpServer } from '../fixtures/session-http-server';
import { optionalServerTest } from '../support/optional-server';

const time = timeServer();
/** The Python reference server's tests: run when it is installed; otherwise they fail in CI and are skipped elsewhere, saying why. */
const withTime = optionalServerTest({ name: 'mcp-server-time', install: 'python3 -m pip install mcp-server-time' }, time !== undefined);

function routeOf(catalog: ToolCatalog, server: string, tool: string): string {
  const found = toolRouteEntries(catalog).find(([, route]) => route.server === server && route.name === tool);
  if (!found) throw new Error(`no route to ${server}/${tool}`);
  return found[0];
}

describe('stdio reference servers: everything, filesystem, memory, time (Python)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-ref-'));
  const files = path.join(dir, 'files');
  const memoryFile = path.join(dir, 'memory.jsonl');
  const logs: string[] = [];
  let connections: McpConnections;
  let catalog: ToolCatalog;

  beforeAll(async () => {
    mkdirSync(files);
    const servers: McpServerConfig[] = [everythingServer(), filesystemServer(files), memoryServer(memoryFile)];
    if (time) servers.push(time);
    connections = new McpConnections(servers, (line) => logs.push(line));
    catalog = await buildToolCatalog(connections);
  });
  afterAll(async () => {
    await connections?.closeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every server is listed and merged, each tool routed back to its server (S4, S5)', () => {
    const names = catalog.tools.map((t) => t.name);
    for (const name of ['echo', 'get-tiny-image', 'read_text_file', 'write_file', 'create_entities', 'search_nodes']) expect(names).toContain(name);
    if (time) expect(names).toEqual(expect.arrayContaining(['get_current_time', 'convert_time']));
    expect(findToolRoute(catalog, 'get-tiny-image')).toMatchObject({ server: 'everything', name: 'get-tiny-image', idempotent: true });
    expect(findToolRoute(catalog, 'write_file')).toMatchObject({ server: 'filesystem', name: 'write_file', timeoutMs: 60_000 });
    expect(findToolRoute(catalog, 'search_nodes')).toMatchObject({ server: 'memory', name: 'search_nodes' });
    for (const tool of catalog.tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.input_schema.type).toBe('object');
    }
    // The task-only tool of server-everything is offered: its calls run as MCP tasks (src/mcp/tasks).
    expect(names).toContain('simulate-research-query');
    expect(logs.some((l) => l.startsWith('[mcp:everything] warning: tool "simulate-research-query" left out'))).toBe(false);
    // stderr of a stdio server goes to the worker log under its name.
    expect(logs).toContain('[mcp:everything] Starting default (STDIO) server...');
  });

  test('everything: an image becomes a base64 image block (S13); bad arguments come back as isError (S14)', async () => {
    const image = await callTool(connections, 'everything', 'get-tiny-image');
    expect(image.isError).toBe(false);
    expect(image.content).toEqual([
      { type: 'text', text: "Here's the image you requested:" },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) } },
      { type: 'text', text: 'The image above is the MCP logo.' },
    ]);
    const bad = await callTool(connections, 'everything', 'echo', { message: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/Invalid arguments for tool echo/);
    const links = await callTool(connections, 'everything', 'get-resource-links', { count: 2 });
    expect(JSON.stringify(links.content)).toContain('[resource link] ');
  });

  test('everything: its task-only tool runs as an MCP task (2025-11-25), the task id heartbeated, polled to its report', async () => {
    const env = quietActivityEnvironment();
    const beats: Array<{ taskId?: string; taskStatus?: { status: string } }> = [];
    env.on('heartbeat', (details: { taskId?: string }) => beats.push(details));
    const out = await callTool(connections, 'everything', 'simulate-research-query', { topic: 'durable execution' }, env);
    expect(out.isError).toBe(false);
    expect(JSON.stringify(out.content)).toContain('Research Report: durable execution');
    expect(typeof beats[0]?.taskId).toBe('string');
    expect(beats.some((beat) => beat.taskStatus?.status === 'working')).toBe(true);
  });

  test('everything: its task asks for a clarification during tasks/result (2025-11-25): the call’s asker answers it', async () => {
    const asked: unknown[] = [];
    const asker = (): CallAsker => ({
      roots: [],
      ask: (request) => {
        asked.push(request.method);
        return Promise.resolve({ result: { action: 'accept', content: { interpretation: 'programming' } } });
      },
    });
    const input: ToolCallInput = { server: 'everything', tool: 'simulate-research-query', arguments: { topic: 'python', ambiguous: true }, toolUseId: 'toolu_research' };
    const call = (): Promise<ToolCallOutput> => quietActivityEnvironment().run(createCallTool({ connections, asker }), input);
    const out = await call();
    expect(asked).toEqual(['elicitation/create']);
    expect(JSON.stringify(out.content)).toContain('python (programming)');
  });

  test('everything: progress notifications feed the heartbeat details', async () => {
    const env = quietActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (details: unknown) => beats.push(details));
    const out = await callTool(connections, 'everything', 'trigger-long-running-operation', { duration: 0.8, steps: 4 }, env);
    expect(out.content).toMatch(/Long running operation completed/);
    // The SDK may drop the last notification when it arrives with the result; the earlier ones arrive,
    // beside the call's count of tool failures (the tool retry policy's attempt budget).
    expect(beats).toContainEqual({ toolFailures: 0, progress: expect.objectContaining({ progress: 1, total: 4 }) });
    expect(beats).toContainEqual({ toolFailures: 0, progress: expect.objectContaining({ progress: 2, total: 4 }) });
  });

  test('filesystem over a temp folder: write, read back, and a path outside it is a tool error', async () => {
    const file = path.join(files, 'note.txt');
    const written = await callTool(connections, 'filesystem', 'write_file', { path: file, content: '你好, MCP' });
    expect(written.isError).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('你好, MCP');
    const read = await callTool(connections, 'filesystem', 'read_text_file', { path: file });
    expect(read).toMatchObject({ isError: false, content: '你好, MCP' });
    const outside = await callTool(connections, 'filesystem', 'read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
    expect(outside.content).toMatch(/denied|outside allowed/i);
  });

  test('memory: the env reaches the process (MEMORY_FILE_PATH) and what is stored can be found', async () => {
    await callTool(connections, 'memory', 'create_entities', {
      entities: [{ name: 'Beijing', entityType: 'city', observations: ['sunny, 25°C'] }],
    });
    const found = await callTool(connections, 'memory', 'search_nodes', { query: 'Beijing' });
    expect(found.isError).toBe(false);
    expect(JSON.stringify(found.content)).toContain('sunny, 25°C');
    expect(existsSync(memoryFile)).toBe(true);
  });

  withTime('time (Python, PyPI): a call works; an unknown tool is a JSON-RPC -32602 the host does not retry (S11)', async () => {
    const now = await callTool(connections, 'time', 'get_current_time', { timezone: 'Asia/Shanghai' });
    expect(now.isError).toBe(false);
    expect(JSON.stringify(now.content)).toContain('Asia/Shanghai');
    const badZone = await callTool(connections, 'time', 'get_current_time', { timezone: 'Not/AZone' });
    expect(badZone.isError).toBe(true);
    const unknown = await failureOf(callTool(connections, 'time', 'no_such_tool'));
    expect(unknown.type).toBe('mcp.invalid_params');
    expect(unknown.nonRetryable).toBe(true);
    expect(unknown.message).toMatch(/-32602.*Unknown tool: no_such_tool/);
    // The connection survives a JSON-RPC error.
    expect((await callTool(connections, 'time', 'get_current_time', { timezone: 'Etc/UTC' })).isError).toBe(false);
  });

  test('one long-lived connection per server, shared by every call', async () => {
    const pid = connections.pid('everything');
    expect(pid).toBeDefined();
    await Promise.all([1, 2, 3].map((n) => callTool(connections, 'everything', 'echo', { message: `m${n}` })));
    expect(connections.pid('everything')).toBe(pid);
    expect(logs.filter((l) => l.startsWith('[mcp:everything] connected')).length).toBe(1);
  });

  test('closeAll ends every server process', async () => {
    const pids = ['everything', 'filesystem', 'memory', ...(time ? ['time'] : [])].map((name) => connections.pid(name));
    expect(pids.every((pid) => pid !== undefined)).toBe(true);
    await connections.closeAll();
    for (const pid of pids) expect(isRunning(pid as number)).toBe(false);
  });
});

describe('HTTP: server-everything over Streamable HTTP and legacy SSE, and an expiring session', () => {
  let streamable: EverythingHttp | undefined;
  let sse: EverythingHttp | undefined;
  const logs: string[] = [];
  let connections: McpConnections;

  beforeAll(async () => {
    [streamable, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
    connections = new McpConnections(
      [
        { name: 'everything_http', transport: 'http', url: streamable.url, headers: { 'X-Tenant': 'acme' }, tools: {} },
        // Configured as plain HTTP: the host finds out the server only speaks the old SSE transport.
        { name: 'everything_sse', transport: 'http', url: sse.url, headers: {}, tools: {} },
      ],
      (line) => logs.push(line),
    );
  });
  afterAll(async () => {
    await connections?.closeAll();
    await Promise.all([streamable?.stop(), sse?.stop()]);
  });

  test('Streamable HTTP: image block and isError as over stdio; a restarted server is reconnected to', async () => {
    const catalog = await buildToolCatalog(connections);
    expect(routeOf(catalog, 'everything_http', 'get-tiny-image')).toBe('everything_http__get-tiny-image');
    const image = await callTool(connections, 'everything_http', 'get-tiny-image');
    expect(image.content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.any(String) } });
    const bad = await callTool(connections, 'everything_http', 'echo', {});
    expect(bad.isError).toBe(true);

    // The server restarts on the same port and knows nothing of the host's session.
    const port = streamable!.port;
    await streamable!.stop();
    streamable = await startEverythingHttp('streamableHttp', port);
    const generation = connections.toolsGeneration();
    const again = await callTool(connections, 'everything_http', 'echo', { message: 'after restart' });
    expect(again).toMatchObject({ isError: false, content: 'Echo: after restart' });
    // Reconnecting may have found a different tool list: the catalogue is listed again.
    expect(connections.toolsGeneration()).toBeGreaterThan(generation);
  });

  test('a server that only speaks legacy SSE is reached through the fallback', async () => {
    const out = await callTool(connections, 'everything_sse', 'echo', { message: 'over sse' });
    expect(out).toMatchObject({ isError: false, content: 'Echo: over sse' });
    expect(logs.some((l) => l.startsWith('[mcp:everything_sse] Streamable HTTP refused') && l.includes('legacy SSE'))).toBe(true);
  });

  test('handshake on the wire: initialize asks for 2025-06-18, then notifications/initialized; custom headers on every request; 404 session → reconnect and retry', async () => {
    const server = await startSessionHttpServer();
    const pool = new McpConnections([{ name: 'session', transport: 'http', url: server.url, headers: { 'X-Api-Token': 'tok-123' }, tools: {} }], () => undefined);
    try {
      expect((await callTool(pool, 'session', 'echo', { text: 'one' })).content).toBe('echo: one');
      const posts = server.requests.filter((r) => r.httpMethod === 'POST');
      // The era probe of the spec's HTTP backward compatibility: one session-less 2026-07-28 request,
      // refused with a 4xx by this 2025 server; its session then starts with the three-step handshake.
      expect(posts[0]).toMatchObject({ rpcMethod: 'server/discover', status: 400 });
      expect(posts[0]?.sessionId).toBeUndefined();
      // A worker that never listed the server lists it before its first call (the call's definition).
      expect(posts.slice(1, 5).map((r) => r.rpcMethod)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
      expect(posts[1]?.sessionId).toBeUndefined();
      expect(posts[2]?.sessionId).toBeDefined();
      expect(posts[1]?.requestedProtocolVersion).toBe('2025-06-18');
      expect(posts[4]?.protocolVersionHeader).toBe('2025-06-18');
      for (const request of server.requests) expect(request.headers['x-api-token']).toBe('tok-123');

      await server.forgetSessions();
      const before = server.requests.length;
      // One activity attempt: the 404 means the call never ran, so it is sent again on a new session
      // (with no probe: the server's era is remembered).
      expect((await callTool(pool, 'session', 'echo', { text: 'two' })).content).toBe('echo: two');
      const after = server.requests.slice(before).filter((r) => r.httpMethod === 'POST');
      expect(after.map((r) => [r.rpcMethod, r.status])).toEqual([
        ['tools/call', 404],
        ['initialize', 200],
        ['notifications/initialized', 202],
        ['tools/call', 200],
      ]);
      expect(server.sessionCount()).toBe(1);
    } finally {
      await pool.closeAll();
      // Closing says goodbye: the session is deleted on the server.
      expect(server.requests.some((r) => r.httpMethod === 'DELETE')).toBe(true);
      expect(server.sessionCount()).toBe(0);
      await server.close();
    }
  });
});
