/**
 * The host against a 2025-era stdio server that speaks only protocol 2025-06-18 and has no SDK
 * (test/fixtures/legacy-wire-server.cjs), judged by the server's own wire logs (one per process):
 * the connection that serves sees exactly the three-step handshake first (S3), whatever a dual-era
 * client probes beforehand on a disposable sibling process, and however the server refuses a request
 * before `initialize` (LEGACY_WIRE_PRE_INIT); request ids never repeat and tools/call ids increase
 * (S9); every tools/list page is asked with the cursor as sent (S4, S5); a call works end to end, an
 * `isError` result is data (S10) and an unknown tool's -32602 is a typed failure that is not retried
 * (S11). Driven as scripts/conformance/client.ts does: the pool, then the `listTools` and `callTool`
 * activities in Temporal's mock activity context. Rule ids (S…) refer to shared/seed/RULES.md.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createListTools } from '../../src/activities/list-tools';
import type { ListToolsInput, ListToolsResult } from '../../src/activities/types';
import { toolRouteEntries } from '../../src/conversation/tool-routes';
import type { McpServerConfig } from '../../src/mcp/config';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { ToolCatalogCache } from '../../src/mcp/tool-catalog';
import { callToolActivity as callTool, failureOf, quietActivityEnvironment } from '../fixtures/mock-activities';
import { REPO_ROOT } from '../support/repo';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'legacy-wire-server.cjs');
const SERVER = 'legacy';
const LEGACY_VERSION = '2025-06-18';
/** The fixture's tools, in the order of its three pages (2, 2, 1). */
const TOOL_NAMES = ['echo', 'add', 'upper', 'whoami', 'fail'];

/** How the fixture answers a request before `initialize`, and the JSON-RPC error code it answers with. */
const PRE_INIT_MODES = [
  { mode: 'method-not-found', code: -32601 },
  { mode: 'invalid', code: -32602 },
  { mode: 'silent', code: undefined },
  { mode: 'exit', code: undefined },
] as const;
type PreInitMode = (typeof PRE_INIT_MODES)[number]['mode'];

/**
 * A silent server never answers a dual-era client's probe, which then waits for its probe timeout
 * before falling back to `initialize` (the host's stdio probe timeout, 10 s when this was written;
 * without one the v2 SDK waits the connect's own timeout, 60 s). Every other mode answers or exits
 * at once, so a connect there must not take anywhere near that long.
 */
const CONNECT_TEST_TIMEOUT_MS: Record<PreInitMode, number> = { 'method-not-found': 30_000, invalid: 30_000, silent: 90_000, exit: 30_000 };
/** How long a probe sibling may take to be gone once the connection is up. */
const SIBLING_EXIT_WAIT_MS = 2_000;
/** How long the server may take to read what the client wrote last. */
const HANDSHAKE_READ_WAIT_MS = 2_000;

interface WireMessage {
  jsonrpc: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** One line of a wire log: a message as the server received (`in`) or sent (`out`) it. */
interface WireEntry {
  dir: 'in' | 'out';
  msg?: WireMessage;
  /** A line received that was not JSON. */
  raw?: string;
}

/** The wire log of one server process. */
interface WireLog {
  pid: number;
  entries: WireEntry[];
}

function legacyServer(logDir: string, preInit: PreInitMode): McpServerConfig {
  return {
    name: SERVER,
    transport: 'stdio',
    command: process.execPath,
    args: [FIXTURE],
    env: { LEGACY_WIRE_LOG_DIR: logDir, LEGACY_WIRE_PRE_INIT: preInit },
    tools: {},
  };
}

/** Every process's wire log in `dir`. */
function readWireLogs(dir: string): WireLog[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.jsonl'))
    .map((file) => ({
      pid: Number(path.basename(file, '.jsonl')),
      entries: readFileSync(path.join(dir, file), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as WireEntry),
    }));
}

/** The requests the server received, in order (the server sends none, so every `in` with an id is one). */
function requestsIn(log: WireLog): WireMessage[] {
  return log.entries.flatMap((entry) => (entry.dir === 'in' && entry.msg?.method !== undefined && entry.msg.id !== undefined ? [entry.msg] : []));
}

/** The server's answer to the request with `id`. */
function answerTo(log: WireLog, id: WireMessage['id']): WireMessage {
  const answer = log.entries.find((entry) => entry.dir === 'out' && entry.msg !== undefined && entry.msg.id === id && entry.msg.method === undefined)?.msg;
  if (answer === undefined) throw new Error(`process ${log.pid} never answered request ${JSON.stringify(id)}`);
  return answer;
}

function hasMethod(log: WireLog, matches: (method: string) => boolean): boolean {
  return log.entries.some((entry) => entry.dir === 'in' && entry.msg?.method !== undefined && matches(entry.msg.method));
}

const isHandshake = (log: WireLog): boolean => hasMethod(log, (method) => method === 'initialize');

/**
 * S3 on the serving process: its first three wire messages are exactly `initialize` (asking for
 * 2025-06-18, with capabilities and clientInfo), the server's result, and `notifications/initialized`
 * (no id); nothing comes before or between them.
 */
function expectHandshakeFirst(log: WireLog): void {
  const [request, result, initialized] = log.entries;
  expect(request).toMatchObject({
    dir: 'in',
    msg: {
      jsonrpc: '2.0',
      method: 'initialize',
      params: { protocolVersion: LEGACY_VERSION, clientInfo: { name: expect.any(String), version: expect.any(String) } },
    },
  });
  const capabilities = request?.msg?.params?.capabilities;
  expect(typeof capabilities === 'object' && capabilities !== null && !Array.isArray(capabilities)).toBe(true);
  expect(['string', 'number']).toContain(typeof request?.msg?.id);
  expect(result).toEqual({
    dir: 'out',
    msg: {
      jsonrpc: '2.0',
      id: request?.msg?.id,
      result: { protocolVersion: LEGACY_VERSION, capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'legacy-wire', version: '1.0.0' } },
    },
  });
  expect(initialized).toMatchObject({ dir: 'in', msg: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  expect(initialized?.msg).not.toHaveProperty('id');
}

/** Whether process `pid` is gone (`kill(pid, 0)` fails with ESRCH), waiting up to `waitMs` for it. */
async function goneWithin(pid: number, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
      throw err;
    }
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
}

/** A connection opened through the pool, and what the wire logs held the moment it was up. */
interface Connected {
  connections: McpConnections;
  /** The pid of the process that serves the connection. */
  pid: number;
  /** The wire logs of the other processes started for this connect (probe siblings), as they were then. */
  siblings: WireLog[];
}

/** Opens the server's connection; `before` are the pids whose logs were already in `dir`. */
async function connect(dir: string, preInit: PreInitMode, log: (line: string) => void, before: ReadonlySet<number> = new Set()): Promise<Connected> {
  const connections = new McpConnections([legacyServer(dir, preInit)], log);
  await connections.client(SERVER);
  const pid = connections.pid(SERVER);
  if (pid === undefined) throw new Error('the stdio connection has no pid');
  const siblings = readWireLogs(dir).filter((wire) => wire.pid !== pid && !before.has(wire.pid));
  return { connections, pid, siblings };
}

function wireLogOf(dir: string, pid: number): WireLog {
  const log = readWireLogs(dir).find((wire) => wire.pid === pid);
  if (log === undefined) throw new Error(`process ${pid} left no wire log`);
  return log;
}

/**
 * The serving process's wire log once it holds the handshake's three messages (or after
 * {@link HANDSHAKE_READ_WAIT_MS}): the connect resolves once `notifications/initialized` is written
 * to the pipe, which may be before the server has read it.
 */
async function handshakeLogOf(dir: string, pid: number): Promise<WireLog> {
  const deadline = Date.now() + HANDSHAKE_READ_WAIT_MS;
  for (;;) {
    const log = wireLogOf(dir, pid);
    if (log.entries.length >= 3 || Date.now() > deadline) return log;
    await sleep(20);
  }
}

describe.each(PRE_INIT_MODES)('legacy 2025-06-18 stdio server, LEGACY_WIRE_PRE_INIT=$mode', ({ mode, code }) => {
  let dir = '';
  const logs: string[] = [];
  let opening: Promise<Connected> | undefined;
  /** The connection, opened by the first test that needs it (the first one, which is timed for it). */
  const connected = (): Promise<Connected> => (opening ??= connect(dir, mode, (line) => logs.push(line)));

  // Made here rather than at collection: a describe whose tests are all filtered out runs no hooks.
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), `mcp-legacy-wire-${mode}-`));
  });
  afterAll(async () => {
    if (opening !== undefined) await (await opening.catch(() => undefined))?.connections.closeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  test(
    'connects; the process that serves saw exactly the handshake first: initialize, its result, notifications/initialized (S3)',
    async () => {
      const { pid } = await connected();
      const withHandshake = readWireLogs(dir).filter(isHandshake);
      expect(withHandshake.map((wire) => wire.pid)).toEqual([pid]);
      expectHandshakeFirst(await handshakeLogOf(dir, pid));
    },
    CONNECT_TEST_TIMEOUT_MS[mode],
  );

  test('a probe sibling, if any, saw no initialize and no tools/*, got only the refusal of its mode, and was gone once the connection was up', async () => {
    const { siblings } = await connected();
    // A dual-era client probes once per connect on one disposable process; the v1 client probes not at all.
    expect(siblings.length).toBeLessThanOrEqual(1);
    for (const sibling of siblings) {
      expect(hasMethod(sibling, (method) => method === 'initialize' || method.startsWith('tools/'))).toBe(false);
      expect(sibling.entries.some((entry) => entry.raw !== undefined)).toBe(false);
      const answers = sibling.entries.filter((entry) => entry.dir === 'out').map((entry) => entry.msg?.error?.code);
      expect(answers).toEqual(code === undefined ? [] : answers.map(() => code));
      expect(await goneWithin(sibling.pid, SIBLING_EXIT_WAIT_MS)).toBe(true);
    }
  });

  test('tools/list: every page is asked with the nextCursor of the page before, and the catalogue has all 5 tools (S4, S5)', async () => {
    const { connections, pid } = await connected();
    const listTools = createListTools(new ToolCatalogCache(connections));
    const listed = await quietActivityEnvironment().run<[ListToolsInput], ListToolsResult, typeof listTools>(listTools, {});
    if (!listed.changed) throw new Error('listTools answered "unchanged" without a known digest');
    const { catalog } = listed;
    // The catalogue orders a server's tools by name (src/mcp/tool-catalog.ts), not as listed.
    expect(toolRouteEntries(catalog).map(([, route]) => [route.server, route.name])).toEqual([...TOOL_NAMES].sort().map((name) => [SERVER, name]));

    const wire = wireLogOf(dir, pid);
    const pages = requestsIn(wire).filter((request) => request.method === 'tools/list');
    const answers = pages.map((request) => answerTo(wire, request.id));
    expect(pages).toHaveLength(3);
    expect(pages[0]?.params?.cursor).toBeUndefined();
    for (let i = 1; i < pages.length; i++) {
      const sent = answers[i - 1]?.result?.nextCursor;
      expect(typeof sent).toBe('string');
      expect(pages[i]?.params?.cursor).toBe(sent);
    }
    expect(answers[2]?.result).not.toHaveProperty('nextCursor');
    expect(answers.flatMap((answer) => (answer.result?.tools as Array<{ name: string }>).map((tool) => tool.name))).toEqual(TOOL_NAMES);
  });

  test('tools/call end to end; an isError result is data (S10); an unknown tool is -32602, a failure not retried, and the connection stays (S11)', async () => {
    const { connections, pid } = await connected();
    await expect(callTool(connections, SERVER, 'echo', { text: '你好, legacy wire' })).resolves.toEqual({ content: '你好, legacy wire', isError: false, truncatedChars: 0 });
    await expect(callTool(connections, SERVER, 'add', { a: 2, b: 3 })).resolves.toMatchObject({ content: '5', isError: false });
    await expect(callTool(connections, SERVER, 'fail')).resolves.toMatchObject({ content: 'this tool always fails', isError: true });

    // The JSON-RPC error goes through the classifier: non-retryable `mcp.invalid_params`, which the
    // workflow turns into the host's own is_error tool_result for Claude.
    const unknown = await failureOf(callTool(connections, SERVER, 'no_such_tool'));
    expect(unknown.type).toBe('mcp.invalid_params');
    expect(unknown.nonRetryable).toBe(true);
    expect(unknown.message).toMatch(/-32602.*Unknown tool: no_such_tool/);

    await expect(callTool(connections, SERVER, 'upper', { text: 'still here' })).resolves.toMatchObject({ content: 'STILL HERE', isError: false });
    expect(connections.pid(SERVER)).toBe(pid);
    const unknownCalls = requestsIn(wireLogOf(dir, pid)).filter((request) => request.method === 'tools/call' && request.params?.name === 'no_such_tool');
    expect(unknownCalls).toHaveLength(1);
  });

  test('request ids on the connection never repeat, and tools/call ids increase (S9)', async () => {
    const { pid } = await connected();
    const requests = requestsIn(wireLogOf(dir, pid));
    const ids = requests.map((request) => request.id);
    expect(new Set(ids).size).toBe(ids.length);
    const callIds = requests.filter((request) => request.method === 'tools/call').map((request) => request.id);
    expect(callIds).toHaveLength(5);
    for (const id of callIds) expect(typeof id).toBe('number');
    const numbers = callIds as number[];
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    // The server says so on stderr (which the pool logs) when a request came before the handshake ended.
    expect(logs.filter((line) => line.includes('handshake violation'))).toEqual([]);
  });
});

describe('legacy 2025-06-18 stdio server: a second McpConnections after closeAll', () => {
  const logs: string[] = [];
  const dirs: string[] = [];
  const pools: McpConnections[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-legacy-wire-again-'));
    dirs.push(dir);
    return dir;
  };
  /** Two connects in a row on the same config, the first pool closed before the second opens. */
  async function connectTwice(dir: string): Promise<{ first: Connected; second: Connected }> {
    const first = await connect(dir, 'method-not-found', (line) => logs.push(line));
    pools.push(first.connections);
    await first.connections.closeAll();
    const before = new Set(readWireLogs(dir).map((wire) => wire.pid));
    const second = await connect(dir, 'method-not-found', (line) => logs.push(line), before);
    pools.push(second.connections);
    return { first, second };
  }

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.closeAll()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('connects again on a new process, which saw exactly the handshake first (S3)', async () => {
    const dir = tempDir();
    const { first, second } = await connectTwice(dir);
    expect(second.pid).not.toBe(first.pid);
    expect(await goneWithin(first.pid, SIBLING_EXIT_WAIT_MS)).toBe(true);
    expectHandshakeFirst(await handshakeLogOf(dir, second.pid));
    expect(readWireLogs(dir).filter(isHandshake).map((wire) => wire.pid).sort()).toEqual([first.pid, second.pid].sort());
    expect(second.siblings.length).toBeLessThanOrEqual(first.siblings.length);
  });

  // The era is remembered per server configuration (src/mcp/transport/era-memory.ts): a legacy
  // server is probed once per worker process, on a sibling, and never again.
  test('[era cache] the second connect sends no server/discover probe: the first connect started one sibling, the second none', async () => {
    const dir = tempDir();
    const { first, second } = await connectTwice(dir);
    expect(first.siblings).toHaveLength(1);
    expect(second.siblings).toHaveLength(0);
    expectHandshakeFirst(await handshakeLogOf(dir, second.pid));
  });
});
