/**
 * MCP tasks on the 2025-11-25 wire (src/mcp/tasks) against a real SDK v1 server with experimental
 * tasks over Streamable HTTP (test/fixtures/task-2025-server.ts): which calls run as tasks, the
 * task id handed over before any wait, polling to `tasks/result`, a second connection (a new
 * worker) resuming the same task without calling the tool again, a restarted server's lost task,
 * a `failed` task's `isError` result, and `tasks/cancel`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { HostError } from '../../src/errors/host-error';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { TaskDriver, taskWireFor, type TaskCallbacks, type TaskSnapshot } from '../../src/mcp/tasks';
import { listServer } from '../../src/mcp/tools/server-listing';
import { startTask2025Server, type Task2025Server } from '../fixtures/task-2025-server';

describe('MCP tasks, 2025-11-25', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasks-2025-'));
  const logFile = path.join(dir, 'task.log');
  let server: Task2025Server;
  const pools: McpConnections[] = [];

  /** A pool of its own: a worker's connections. */
  const pool = (url = server.url): McpConnections => {
    const connections = new McpConnections([{ name: 't', transport: 'http', url, headers: {}, tools: {}, oauth: false }], () => undefined);
    pools.push(connections);
    return connections;
  };
  const logLines = (): string[] => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter((line) => line !== '') : []);

  /** Callbacks that record what the driver told. */
  function recorder(): TaskCallbacks & { ids: string[]; statuses: TaskSnapshot[]; methodsAtId: string[][] } {
    const ids: string[] = [];
    const statuses: TaskSnapshot[] = [];
    const methodsAtId: string[][] = [];
    return {
      ids,
      statuses,
      methodsAtId,
      onTaskId: (id) => {
        ids.push(id);
        methodsAtId.push([...server.methods]);
      },
      onStatus: (task) => statuses.push(task),
    };
  }

  const driver = (client: Client, callbacks: TaskCallbacks, signal = new AbortController().signal): TaskDriver =>
    new TaskDriver({ client, wire: 'tasks-2025', server: 't', tool: 'slow_task', signal, requestTimeoutMs: 10_000 }, callbacks);

  beforeAll(async () => {
    server = await startTask2025Server({ logFile, pollIntervalMs: 100 });
  });
  afterAll(async () => {
    for (const connections of pools) await connections.closeAll();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the listing records each tool’s task support; the server’s tasks capability makes them task calls', async () => {
    const connections = pool();
    const listing = await listServer(connections, connections.server('t'));
    expect(listing.tools.map((tool) => tool.name)).toEqual(['slow_task', 'maybe_task', 'broken_task']);
    expect(connections.toolDefinitions.get('t', 'slow_task')).toMatchObject({ taskSupport: 'required' });
    expect(connections.toolDefinitions.get('t', 'maybe_task')).toMatchObject({ taskSupport: 'optional' });
    const client = await connections.client('t');
    expect(taskWireFor(client, connections.toolDefinitions.get('t', 'slow_task'))).toBe('tasks-2025');
    expect(taskWireFor(client, connections.toolDefinitions.get('t', 'maybe_task'))).toBe('tasks-2025');
    expect(taskWireFor(client, { headerParams: [] })).toBeUndefined();
    expect(taskWireFor(client, undefined)).toBeUndefined();
  });

  test('a call runs as a task: its id is handed over before any poll, statuses follow, and tasks/result is the tool’s result', async () => {
    const connections = pool();
    const seen = recorder();
    const result = await connections.use('t', (client) => driver(client, seen).start({ text: 'hello', ms: 2200 }));
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'done: hello' }] });
    expect(seen.ids).toHaveLength(1);
    const [id] = seen.ids;
    // Handed over right after tools/call answered: no tasks/get had been sent for it yet.
    expect(seen.methodsAtId[0]?.at(-1)).toBe('tools/call');
    expect(seen.statuses.map((task) => task.status)).toEqual(expect.arrayContaining(['working', 'completed']));
    expect(seen.statuses.some((task) => task.statusMessage === 'working 1/3 s')).toBe(true);
    expect(logLines().filter((line) => line === `started ${id!}`)).toHaveLength(1);
    expect(server.methods.slice(-1)).toEqual(['tasks/result']);
  });

  test('another connection (a new worker) resumes the same task: the tool is not called again', async () => {
    const first = pool();
    const created = recorder();
    const abandoned = new AbortController();
    const running = first.use('t', (client) => driver(client, created, abandoned.signal).start({ text: 'resumed', ms: 1500 }));
    while (created.ids.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // The first worker dies: its wait stops, the task goes on on the server.
    abandoned.abort(new Error('worker lost'));
    await expect(running).rejects.toThrow();
    const calls = server.methods.filter((method) => method === 'tools/call').length;

    const second = pool();
    const resumed = recorder();
    const result = await second.use('t', (client) => driver(client, resumed).resume(created.ids[0]!));
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'done: resumed' }] });
    expect(server.methods.filter((method) => method === 'tools/call')).toHaveLength(calls);
    expect(logLines().filter((line) => line === `started ${created.ids[0]!}`)).toHaveLength(1);
    expect(logLines()).toContain(`finished ${created.ids[0]!}`);
  });

  test('a task the server no longer knows (it restarted) is lost: retryable, "may have run", nothing left to resume', async () => {
    const connections = pool();
    const started = recorder();
    const id = await connections.use('t', async (client) => {
      const run = driver(client, started);
      await run.start({ text: 'short', ms: 0 });
      return run.taskId!;
    });
    const restarted = await startTask2025Server({ logFile });
    try {
      const run = await pool(restarted.url).use('t', async (client) => {
        const lost = driver(client, recorder());
        const err = await lost.resume(id).then(
          () => undefined,
          (e: unknown) => e,
        );
        return { err, spent: lost.spent };
      });
      expect(run.spent).toBe(true);
      expect(run.err).toBeInstanceOf(HostError);
      expect(run.err).toMatchObject({ type: 'mcp.task_lost', retryable: true });
      expect((run.err as Error).message).toContain(`the task ${id} of tools/call "slow_task" on MCP server "t" is lost`);
    } finally {
      await restarted.close();
    }
  });

  test('a failed task: tasks/result’s isError result is the tool’s error, as data; the task is spent', async () => {
    const connections = pool();
    const out = await connections.use('t', async (client) => {
      const run = new TaskDriver({ client, wire: 'tasks-2025', server: 't', tool: 'broken_task', signal: new AbortController().signal, requestTimeoutMs: 10_000 }, recorder());
      return { result: await run.start({}), spent: run.spent };
    });
    expect(out.result).toMatchObject({ content: [{ type: 'text', text: 'the backend refused' }], isError: true });
    expect(out.spent).toBe(true);
  });

  test('an optional tool runs as a task too', async () => {
    const connections = pool();
    const seen = recorder();
    const result = await connections.use('t', (client) =>
      new TaskDriver({ client, wire: 'tasks-2025', server: 't', tool: 'maybe_task', signal: new AbortController().signal, requestTimeoutMs: 10_000 }, seen).start({ text: 'opt', ms: 100 }),
    );
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'done: opt' }] });
    expect(seen.ids).toHaveLength(1);
  });

  test('tasks/cancel stops the task on the server', async () => {
    const connections = pool();
    const seen = recorder();
    const stop = new AbortController();
    await connections.use('t', async (client) => {
      const run = driver(client, seen, stop.signal);
      const running = run.start({ text: 'never', ms: 20_000 });
      while (seen.ids.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      stop.abort(new Error('cancelled'));
      await expect(running).rejects.toThrow();
      expect(await run.cancel()).toBe(true);
    });
    const id = seen.ids[0]!;
    expect((await server.store.getTask(id))?.status).toBe('cancelled');
    // The body notices within a second.
    for (let i = 0; i < 40 && !logLines().includes(`cancelled ${id}`); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logLines()).toContain(`cancelled ${id}`);
    expect(logLines()).not.toContain(`finished ${id}`);
  });

  test('a JSON-RPC error of tasks/get that another attempt may not meet is a poll failure (the next attempt polls again)', async () => {
    const connections = pool();
    await connections.use('t', async (client) => {
      const request = jest.spyOn(client, 'request');
      // Only tasks/get fails, once, as a busy server would.
      request.mockImplementationOnce(() => Promise.reject(new ProtocolError(-32603, 'busy')));
      const run = driver(client, recorder());
      const err = await run.resume('whatever').then(
        () => undefined,
        (e: unknown) => e,
      );
      request.mockRestore();
      expect(err).toMatchObject({ type: 'mcp.task_poll_failed', retryable: true });
      expect(run.spent).toBe(false);
    });
  });
});
