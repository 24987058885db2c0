/**
 * The `callTool` activity with a tool its server runs as an MCP task (issue 27), attempt by attempt
 * in Temporal's mock activity context, against the task fixtures over HTTP: the task id in the
 * heartbeat details as soon as it is known, an attempt that finds one in the previous attempt's
 * details polling that task instead of calling the tool, a lost task forgotten and not run again
 * (the tool is not marked idempotent), `tasks/cancel` when the activity is cancelled on request
 * but not when its worker shuts down, and the 2026-07-28 extension's tasks through the same path.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ActivityCancellationDetails, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createCallTool } from '../../src/activities/call-tool';
import { McpConnections } from '../../src/mcp/mcp-connections';
import type { CallAsker } from '../../src/mcp/server-requests';
import { callToolActivity as callTool, failureOf } from '../fixtures/mock-activities';
import { startTask2025Server, type Task2025Server } from '../fixtures/task-2025-server';
import { startTask2026Server, type Task2026Server } from '../fixtures/task-2026-server';

/** An attempt's environment: the previous attempt's heartbeat details, and the heartbeats it sends. */
function attempt(details?: unknown): { env: MockActivityEnvironment; heartbeats: Array<Record<string, unknown>> } {
  const env = new MockActivityEnvironment({ heartbeatDetails: details, heartbeatTimeoutMs: 3000 }, { logger: new DefaultLogger('ERROR') });
  const heartbeats: Array<Record<string, unknown>> = [];
  env.on('heartbeat', (d: unknown) => heartbeats.push(d as Record<string, unknown>));
  return { env, heartbeats };
}

async function waitFor<T>(check: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out');
}

describe('callTool with MCP tasks', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'call-tool-task-'));
  const logFile = path.join(dir, 'task.log');
  let server2025: Task2025Server;
  let server2026: Task2026Server;
  const pools: McpConnections[] = [];
  const pool = (url: string): McpConnections => {
    const connections = new McpConnections([{ name: 'tasks', transport: 'http', url, headers: {}, tools: {}, oauth: false }], () => undefined);
    pools.push(connections);
    return connections;
  };
  const started = (): string[] => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter((line) => line.startsWith('started ')) : []);

  beforeAll(async () => {
    server2025 = await startTask2025Server({ logFile, pollIntervalMs: 100 });
    server2026 = await startTask2026Server({ logFile, pollIntervalMs: 100 });
  });
  afterAll(async () => {
    for (const connections of pools) await connections.closeAll();
    await server2025.close();
    await server2026.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the task id is heartbeated as soon as it is known, with the status as it changes; the result is the tool’s', async () => {
    const { env, heartbeats } = attempt();
    const out = await callTool(pool(server2025.url), 'tasks', 'slow_task', { text: 'beat', ms: 2200 }, env);
    expect(out).toEqual({ content: 'done: beat', isError: false, truncatedChars: 0 });
    // The one-second heartbeat may beat before the server has answered (a loaded machine); those
    // beats carry no task id, and the first one after the answer carries it alone.
    const first = heartbeats.findIndex((beat) => beat.taskId !== undefined);
    const taskId = heartbeats[first]?.taskId as string;
    expect(typeof taskId).toBe('string');
    expect(heartbeats.slice(0, first).every((beat) => JSON.stringify(beat) === JSON.stringify({ toolFailures: 0 }))).toBe(true);
    expect(heartbeats[first]).toEqual({ toolFailures: 0, taskId });
    expect(heartbeats.slice(first).every((beat) => beat.taskId === taskId)).toBe(true);
    expect(heartbeats).toContainEqual({ toolFailures: 0, taskId, taskStatus: { status: 'working', message: 'working 1/3 s' } });
    expect(started().filter((line) => line === `started ${taskId}`)).toHaveLength(1);
  });

  test('an attempt after a lost worker polls the task the previous attempt heartbeated: no second tools/call', async () => {
    // The first attempt's worker dies once the id is heartbeated: its activity is simply left behind.
    const first = attempt();
    const lost = callTool(pool(server2025.url), 'tasks', 'slow_task', { text: 'survivor', ms: 1500 }, first.env);
    const taskId = await waitFor(() => first.heartbeats.find((beat) => typeof beat.taskId === 'string')?.taskId as string | undefined);
    const calls = server2025.methods.filter((method) => method === 'tools/call').length;

    const second = attempt({ toolFailures: 0, taskId });
    const out = await callTool(pool(server2025.url), 'tasks', 'slow_task', { text: 'survivor', ms: 1500 }, second.env);
    expect(out).toEqual({ content: 'done: survivor', isError: false, truncatedChars: 0 });
    expect(server2025.methods.filter((method) => method === 'tools/call')).toHaveLength(calls);
    expect(second.heartbeats.every((beat) => beat.taskId === taskId)).toBe(true);
    expect(started().filter((line) => line === `started ${taskId}`)).toHaveLength(1);
    await lost;
  });

  test('a task the server lost: not run again when the tool is not marked idempotent; an idempotent one is retried afresh', async () => {
    const lost = attempt({ toolFailures: 0, taskId: 'forgotten-by-a-restart' });
    const failure = await failureOf(callTool(pool(server2025.url), 'tasks', 'slow_task', { text: 'x', ms: 1 }, lost.env));
    expect(failure).toMatchObject({ type: 'mcp.task_lost', nonRetryable: true });
    expect(failure.message).toMatch(/the task forgotten-by-a-restart of tools\/call "slow_task" on MCP server "tasks" is lost .*; not run again: it may have run/);

    const idempotent = attempt({ toolFailures: 0, taskId: 'forgotten-by-a-restart' });
    const input = { server: 'tasks', tool: 'slow_task', arguments: { text: 'x', ms: 1 }, toolUseId: 'toolu_test', idempotent: true };
    const retried = await failureOf(idempotent.env.run(createCallTool({ connections: pool(server2025.url) }), input));
    expect(retried).toMatchObject({ type: 'mcp.task_lost', nonRetryable: false });
    // The failure's record forgets the task: the next attempt calls the tool afresh.
    expect(idempotent.heartbeats.at(-1)).toEqual({ toolFailures: 1 });
  });

  test('cancelled on request: tasks/cancel is sent; a worker shutting down leaves the task to the next attempt', async () => {
    for (const [reason, details, expected] of [
      ['CANCELLED', new ActivityCancellationDetails({ cancelRequested: true }), 'cancelled'],
      ['WORKER_SHUTDOWN', new ActivityCancellationDetails({ workerShutdown: true }), 'working'],
    ] as const) {
      const { env, heartbeats } = attempt();
      const running = callTool(pool(server2025.url), 'tasks', 'slow_task', { text: reason, ms: 20_000 }, env);
      const taskId = await waitFor(() => heartbeats.find((beat) => typeof beat.taskId === 'string')?.taskId as string | undefined);
      env.cancel(reason, details);
      await expect(running).rejects.toBeInstanceOf(CancelledFailure);
      expect((await server2025.store.getTask(taskId))?.status).toBe(expected);
    }
  });

  test('2026-07-28: the same path over the tasks extension, resumed from the heartbeat details too', async () => {
    const first = attempt();
    const out = await callTool(pool(server2026.url), 'tasks', 'slow_task', { text: 'modern', ms: 300 }, first.env);
    expect(out).toEqual({ content: 'done: modern', isError: false, truncatedChars: 0 });
    const taskId = first.heartbeats[0]?.taskId as string;
    expect(server2026.tasks.get(taskId)?.status).toBe('completed');

    const again = attempt({ toolFailures: 0, taskId });
    const calls = server2026.received.filter((request) => request.method === 'tools/call').length;
    expect(await callTool(pool(server2026.url), 'tasks', 'slow_task', { text: 'modern', ms: 300 }, again.env)).toEqual(out);
    expect(server2026.received.filter((request) => request.method === 'tools/call')).toHaveLength(calls);
    // A plain answer of the server (no task) is the tool's result as ever.
    expect(await callTool(pool(server2026.url), 'tasks', 'quick', { text: 'now' })).toEqual({ content: 'quick: now', isError: false, truncatedChars: 0 });
  });

  test('2026-07-28: a task’s input requests go to the call’s asker and back with tasks/update; a refused one cancels the task', async () => {
    const asked: unknown[] = [];
    const accepting = {
      connections: pool(server2026.url),
      asker: (): CallAsker => ({ roots: [], ask: (request) => (asked.push(request), Promise.resolve({ result: { action: 'accept', content: { ok: true } } })) }),
    };
    const input = { server: 'tasks', tool: 'ask_task', arguments: { text: 'q' }, toolUseId: 'toolu_ask' };
    expect(await attempt().env.run(createCallTool(accepting), input)).toEqual({ content: 'asked: accept {"ok":true}', isError: false, truncatedChars: 0 });
    expect(asked).toEqual([{ method: 'elicitation/create', params: expect.objectContaining({ message: 'Proceed with the task?' }) as unknown }]);

    const refusing = { connections: pool(server2026.url), asker: (): CallAsker => ({ roots: [], ask: () => Promise.resolve({ error: { code: -1, message: 'not now' } }) }) };
    const { env, heartbeats } = attempt();
    const failure = await failureOf(env.run(createCallTool(refusing), input));
    expect(failure).toMatchObject({ type: 'mcp.task_cancelled', nonRetryable: true });
    const taskId = heartbeats.find((beat) => typeof beat.taskId === 'string')?.taskId as string;
    expect(server2026.tasks.get(taskId)?.status).toBe('cancelled');
  });

  test('2026-07-28: a failed task is the call’s JSON-RPC error (-32603: retried within the budget), and the retry calls afresh', async () => {
    const { env, heartbeats } = attempt();
    const failure = await failureOf(callTool(pool(server2026.url), 'tasks', 'failing_task', {}, env));
    expect(failure).toMatchObject({ type: 'mcp.server_error', nonRetryable: false });
    // The failure's record carries no task: the next attempt creates a new one.
    expect(heartbeats.at(-1)).toEqual({ toolFailures: 1 });
  });
});
