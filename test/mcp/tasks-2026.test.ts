/**
 * MCP tasks on the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, src/mcp/tasks)
 * against a real Streamable HTTP server (test/fixtures/task-2026-server.ts: the SDK v2 for
 * discovery and listing, the extension's wire by hand): the extension declared in the call's
 * capabilities beside the client's own, a `resultType: "task"` answer let through the SDK client,
 * polling with `Mcp-Name`, the result inline, a plain answer passed as it is, input requests
 * answered through `ask` and `tasks/update`, a failed task as its JSON-RPC error, a task the
 * server forgot, resuming from another connection, and `tasks/cancel`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { classifyError } from '../../src/errors/classify-error';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { TaskDriver, taskWireFor, type TaskCallbacks, type TaskInputRequest, type TaskSnapshot } from '../../src/mcp/tasks';
import { listServer } from '../../src/mcp/tools/server-listing';
import { startTask2026Server, type Task2026Server } from '../fixtures/task-2026-server';

describe('MCP tasks, the 2026-07-28 extension', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasks-2026-'));
  const logFile = path.join(dir, 'task.log');
  let server: Task2026Server;
  const pools: McpConnections[] = [];

  const pool = (url = server.url): McpConnections => {
    const connections = new McpConnections([{ name: 'x', transport: 'http', url, headers: {}, tools: {}, oauth: false }], () => undefined);
    pools.push(connections);
    return connections;
  };
  const logLines = (): string[] => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter((line) => line !== '') : []);

  function recorder(ask?: TaskCallbacks['ask']): TaskCallbacks & { ids: string[]; statuses: TaskSnapshot[] } {
    const ids: string[] = [];
    const statuses: TaskSnapshot[] = [];
    return { ids, statuses, onTaskId: (id) => ids.push(id), onStatus: (task) => statuses.push(task), ...(ask !== undefined ? { ask } : {}) };
  }

  /** Runs `tool` as a task over a fresh pool; returns what it resolved or rejected with, and the driver. */
  async function run(
    tool: string,
    args: Record<string, unknown>,
    callbacks: TaskCallbacks,
    connections = pool(),
  ): Promise<{ result?: unknown; error?: unknown; driver: TaskDriver }> {
    return connections.use('x', async (client) => {
      const driver = new TaskDriver({ client, wire: 'tasks-extension', server: 'x', tool, signal: new AbortController().signal, requestTimeoutMs: 10_000 }, callbacks);
      try {
        return { result: await driver.start(args), driver };
      } catch (error) {
        return { error, driver };
      }
    });
  }

  beforeAll(async () => {
    server = await startTask2026Server({ logFile, pollIntervalMs: 100 });
  });
  afterAll(async () => {
    for (const connections of pools) await connections.closeAll();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a server advertising the extension makes its calls task calls (unless a tool forbids it)', async () => {
    const connections = pool();
    await listServer(connections, connections.server('x'));
    const client = await connections.client('x');
    expect(client.getProtocolEra()).toBe('modern');
    expect(taskWireFor(client, connections.toolDefinitions.get('x', 'slow_task'))).toBe('tasks-extension');
    expect(taskWireFor(client, undefined)).toBe('tasks-extension');
    expect(taskWireFor(client, { headerParams: [], taskSupport: 'forbidden' })).toBeUndefined();
  });

  test('a task: the extension declared beside the client’s capabilities, polled with Mcp-Name, the result inline', async () => {
    const seen = recorder();
    const { result, driver } = await run('slow_task', { text: 'modern', ms: 2200 }, seen);
    expect(result).toEqual({ content: [{ type: 'text', text: 'done: modern' }] });
    const id = driver.taskId!;
    expect(seen.ids).toEqual([id]);
    // Each status message shows for a second, longer than a poll interval (the server's 100 ms,
    // clamped to 250 ms), so each is normally seen; a machine under load may miss a poll, so the
    // statuses seen are the server's, in its order, from the first to the last, with the middle at
    // least in part.
    const all = ['working ()', 'working (working 1/3 s)', 'working (working 2/3 s)', 'completed (working 2/3 s)']; // the server leaves the last message in place
    const statuses = seen.statuses.map((task) => `${task.status} (${task.statusMessage ?? ''})`);
    expect(statuses[0]).toBe(all[0]);
    expect(statuses.at(-1)).toBe(all[3]);
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    expect(statuses.map((status) => all.indexOf(status))).toEqual([...new Set(statuses.map((status) => all.indexOf(status)))].sort());
    const call = server.received.find((request) => request.method === 'tools/call' && (request.params.arguments as { text?: string }).text === 'modern');
    const capabilities = (call?.params._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown>;
    expect(capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    // The client's own capabilities stay declared, and the host's mark never reaches the wire.
    expect(Object.keys(capabilities).length).toBeGreaterThan(1);
    expect(Object.keys(call?.params._meta as object).some((key) => key.startsWith('durable-mcp-host'))).toBe(false);
    const polls = server.received.filter((request) => request.method === 'tasks/get' && request.params.taskId === id);
    expect(polls.length).toBeGreaterThan(0);
    for (const poll of polls) expect(poll.mcpName).toBe(id);
    expect(logLines().filter((line) => line === `started ${id}`)).toHaveLength(1);
  });

  test('the server may answer without a task: that result is the tool’s', async () => {
    const seen = recorder();
    const { result, driver } = await run('quick', { text: 'now' }, seen);
    expect(result).toEqual({ content: [{ type: 'text', text: 'quick: now' }] });
    expect(driver.taskId).toBeUndefined();
    expect(seen.ids).toEqual([]);
  });

  test('only a call the driver marked gets a task answer through; on any other request the SDK rejects one, as before', async () => {
    const connections = pool();
    await run('quick', { text: 'edge' }, recorder(), connections);
    await connections.use('x', async (client) => {
      // Undeclared, slow_task answers -32021 (the server may not answer a task).
      await expect(client.request({ method: 'tools/call', params: { name: 'slow_task', arguments: { text: 'plain', ms: 1 } } }, z.unknown())).rejects.toMatchObject({ code: -32021 });
      // Declared by hand, not through the driver: the task answer meets the SDK's own check.
      const declared = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
      await expect(
        client.request({ method: 'tools/call', params: { name: 'slow_task', arguments: { text: 'by hand', ms: 1 }, _meta: declared } }, z.unknown()),
      ).rejects.toThrow(/Unsupported result type 'task'/);
    });
  });

  test('input_required: each request answered once through ask, sent with tasks/update; the task completes', async () => {
    const asked: Array<[string, TaskInputRequest]> = [];
    const ask = (key: string, request: TaskInputRequest): Promise<unknown> => {
      asked.push([key, request]);
      return Promise.resolve({ action: 'accept', content: { ok: true } });
    };
    const seen = recorder(ask);
    const { result, driver } = await run('ask_task', { text: 'q' }, seen);
    expect(result).toEqual({ content: [{ type: 'text', text: 'asked: accept {"ok":true}' }] });
    expect(asked).toEqual([['confirm-1', { method: 'elicitation/create', params: expect.objectContaining({ mode: 'form', message: 'Proceed with the task?' }) as unknown }]]);
    expect(seen.statuses.map((task) => task.status)).toContain('input_required');
    const updates = server.received.filter((request) => request.method === 'tasks/update' && request.params.taskId === driver.taskId);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ mcpName: driver.taskId, params: { inputResponses: { 'confirm-1': { action: 'accept', content: { ok: true } } } } });
  });

  test('input_required with no way to answer: the host cancels the task, and the call fails final (mcp.task_cancelled)', async () => {
    const { error, driver } = await run('ask_task', { text: 'q' }, recorder());
    expect(error).toMatchObject({ type: 'mcp.task_cancelled', retryable: false });
    expect((error as Error).message).toContain('it asked for input (elicitation/create)');
    expect(driver.spent).toBe(true);
    expect(server.tasks.get(driver.taskId!)?.status).toBe('cancelled');
  });

  test('a failed task is its JSON-RPC error, classified as tools/call’s own (-32603: a retryable server error); spent', async () => {
    const { error, driver } = await run('failing_task', {}, recorder());
    expect(driver.spent).toBe(true);
    expect(classifyError(error)).toMatchObject({ type: 'mcp.server_error', nonRetryable: false, message: expect.stringContaining('the backend is down') as unknown });
  });

  test('another connection resumes the task; a restarted server has lost it', async () => {
    const first = pool();
    const created = recorder();
    const stop = new AbortController();
    const running = first.use('x', (client) =>
      new TaskDriver({ client, wire: 'tasks-extension', server: 'x', tool: 'slow_task', signal: stop.signal, requestTimeoutMs: 10_000 }, created).start({ text: 'again', ms: 1000 }),
    );
    while (created.ids.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort(new Error('worker lost'));
    await expect(running).rejects.toThrow();
    const id = created.ids[0]!;
    const calls = server.received.filter((request) => request.method === 'tools/call').length;

    const resumed = await pool().use('x', (client) =>
      new TaskDriver({ client, wire: 'tasks-extension', server: 'x', tool: 'slow_task', signal: new AbortController().signal, requestTimeoutMs: 10_000 }, recorder()).resume(id),
    );
    expect(resumed).toEqual({ content: [{ type: 'text', text: 'done: again' }] });
    expect(server.received.filter((request) => request.method === 'tools/call')).toHaveLength(calls);
    expect(logLines().filter((line) => line === `started ${id}`)).toHaveLength(1);

    const restarted = await startTask2026Server();
    try {
      const lost = await pool(restarted.url).use('x', async (client) => {
        const driver = new TaskDriver({ client, wire: 'tasks-extension', server: 'x', tool: 'slow_task', signal: new AbortController().signal, requestTimeoutMs: 10_000 }, recorder());
        return { error: await driver.resume(id).catch((e: unknown) => e), spent: driver.spent };
      });
      expect(lost.error).toMatchObject({ type: 'mcp.task_lost', retryable: true });
      expect(lost.spent).toBe(true);
    } finally {
      await restarted.close();
    }
  });

  test('tasks/cancel reaches the server with Mcp-Name, and the task stops', async () => {
    const seen = recorder();
    const stop = new AbortController();
    const connections = pool();
    await connections.use('x', async (client) => {
      const driver = new TaskDriver({ client, wire: 'tasks-extension', server: 'x', tool: 'slow_task', signal: stop.signal, requestTimeoutMs: 10_000 }, seen);
      const running = driver.start({ text: 'stop', ms: 20_000 });
      while (seen.ids.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      stop.abort(new Error('cancelled'));
      await expect(running).rejects.toThrow();
      expect(await driver.cancel()).toBe(true);
    });
    const id = seen.ids[0]!;
    expect(server.tasks.get(id)?.status).toBe('cancelled');
    expect(server.received.filter((request) => request.method === 'tasks/cancel').at(-1)).toMatchObject({ mcpName: id, params: { taskId: id } });
    for (let i = 0; i < 30 && !logLines().includes(`cancelled ${id}`); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logLines()).toContain(`cancelled ${id}`);
  });
});
