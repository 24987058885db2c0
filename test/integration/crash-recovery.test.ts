/**
 * Crash: `kill -9` of the worker process while a tool call runs; a new worker process finishes the
 * turn, and the final messages array has no duplicated or missing entry. Worker loss is not a tool
 * failure: a call whose workers are killed again and again is retried until it runs, without
 * spending the tool's attempt budget (src/errors/tool-retry-policy.ts).
 */
import { Client, Connection } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { conversationOptions } from '../../src/client/conversation-options';
import { dataConverter } from '../../src/temporal/data-converter';
import { conversationWorkflow } from '../../src/workflows';
import { messagesQuery, statusQuery, userMessageSignal } from '../../src/workflows/definitions';
import { tsServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('worker crash during a tool call', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  const workers: WorkerProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-crash-'));
  const labLog = path.join(dir, 'lab.log');

  /** A new worker process on `taskQueue`, stopped after the suite. */
  const spawnWorker = async (taskQueue: string, mcpConfigPath: string): Promise<WorkerProcess> => {
    const worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('kill -9 mid-tool: a new worker completes the turn, messages exact', async () => {
    const client = new Client({ connection, dataConverter });
    const taskQueue = `crash-${randomUUID()}`;
    const mcpConfigPath = writeMcpConfig([tsServer('lab', 'test/fixtures/lab-server.ts', { LAB_LOG: labLog })]);
    fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'text', text: 'Running the slow tool.' },
          { type: 'tool_use', id: 'toolu_slow', name: 'slow_echo', input: { text: 'crash', ms: 3000 } },
        ],
        stop_reason: 'tool_use',
      },
      { kind: 'message', content: [{ type: 'text', text: 'done: echo: crash' }], stop_reason: 'end_turn' },
    );
    const first = await spawnWorker(taskQueue, mcpConfigPath);
    const handle = await client.workflow.start(conversationWorkflow, {
      taskQueue,
      workflowId: `crash-${randomUUID()}`,
      // A short heartbeat timeout lets the server notice the dead worker within seconds.
      args: [{ options: conversationOptions({ toolHeartbeatTimeoutMs: 2000, modelHeartbeatTimeoutMs: 2000 }) }],
    });
    await handle.signal(userMessageSignal, 'echo crash slowly');

    await waitFor('the slow tool to start', () => fs.existsSync(labLog) && fs.readFileSync(labLog, 'utf8').includes('start crash'));
    first.kill9();
    expect(await first.exited).toBeNull(); // killed by a signal, no exit code
    await spawnWorker(taskQueue, mcpConfigPath);

    await waitFor('the turn to complete', async () => (await handle.query(statusQuery)).turnsCompleted === 1);
    const status = await handle.query(statusQuery);
    expect(status.lastTurn).toMatchObject({ status: 'completed', text: 'done: echo: crash', modelCalls: 2, toolCalls: 1 });
    expect(await handle.query(messagesQuery)).toEqual([
      { role: 'user', content: 'echo crash slowly' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running the slow tool.' },
          { type: 'tool_use', id: 'toolu_slow', name: 'slow_echo', input: { text: 'crash', ms: 3000 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_slow', content: 'echo: crash' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done: echo: crash' }] },
    ]);
    expect(fake.requests).toHaveLength(2);
    // The history shows the tool call's second attempt, after the heartbeat timeout of the first.
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? [])
      .filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes?.attempt);
    expect(attempts).toContain(2);
  });

  test("a tool call whose worker is killed 5 times in a row still completes with the tool's real result", async () => {
    const client = new Client({ connection, dataConverter });
    const taskQueue = `crash5-${randomUUID()}`;
    const log = path.join(dir, 'five.log');
    const mcpConfigPath = writeMcpConfig([tsServer('lab', 'test/fixtures/lab-server.ts', { LAB_LOG: log })]);
    const useTool = { type: 'tool_use' as const, id: 'toolu_five', name: 'slow_echo', input: { text: 'five', ms: 4000 } };
    fake.enqueue(
      { kind: 'message', content: [useTool], stop_reason: 'tool_use' },
      { kind: 'message', content: [{ type: 'text', text: 'done: echo: five' }], stop_reason: 'end_turn' },
    );
    const started = (): number => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((l) => l === 'start five').length : 0);
    let worker = await spawnWorker(taskQueue, mcpConfigPath);
    const handle = await client.workflow.start(conversationWorkflow, {
      taskQueue,
      workflowId: `crash5-${randomUUID()}`,
      // The product's defaults: the heartbeat timeout a real conversation gets.
      args: [{ options: conversationOptions({}) }],
    });
    await handle.signal(userMessageSignal, 'echo five slowly');

    const recoveries: number[] = [];
    let killedAt = 0;
    for (let kill = 1; kill <= 6; kill++) {
      await waitFor(`attempt ${kill} of the tool call to start`, () => started() >= kill);
      if (kill > 1) recoveries.push(Date.now() - killedAt);
      if (kill === 6) break;
      // The whole process group: the worker and its MCP server die together, mid-call.
      process.kill(-worker.pid, 'SIGKILL');
      killedAt = Date.now();
      expect(await worker.exited).toBeNull();
      worker = await spawnWorker(taskQueue, mcpConfigPath);
    }
    console.log(`kill -9 → the tool call running again on a new worker, per kill: ${recoveries.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    // Generous on purpose (timings belong in bench/failover.ts): far below the 30 s of the old heartbeat timeout.
    for (const ms of recoveries) expect(ms).toBeLessThan(20_000);

    await waitFor('the turn to complete', async () => (await handle.query(statusQuery)).turnsCompleted === 1);
    expect((await handle.query(statusQuery)).lastTurn).toMatchObject({ status: 'completed', text: 'done: echo: five', toolCalls: 1 });
    const messages = await handle.query(messagesQuery);
    // The tool's real output, not a host-written is_error result: five lost workers spent no budget.
    expect(messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_five', content: 'echo: five' }] });
    expect(fs.readFileSync(log, 'utf8').split('\n').filter((l) => l === 'end five')).toHaveLength(1);
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : []));
    expect(attempts).toContain(6);
  }, 300_000);
});
