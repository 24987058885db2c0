/**
 * Crash: `kill -9` of the worker process while a tool call runs; a new worker process finishes the
 * turn, and the final messages array has no duplicated or missing entry.
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
    const spawnWorker = async (): Promise<WorkerProcess> => {
      const worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });
      workers.push(worker);
      return worker;
    };
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
    const first = await spawnWorker();
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
    await spawnWorker();

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
});
