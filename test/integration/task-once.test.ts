/**
 * MCP tasks (issue 27): a tool its server runs as a task runs ONCE however many workers are killed
 * under it. A real Temporal dev server, the compiled worker as an OS process, the scripted fake
 * Messages API playing Claude, and an HTTP MCP server process of its own (it outlives the workers)
 * whose 8 s task tool logs `started <taskId>` when its body starts. The worker is killed with
 * SIGKILL twice during the call, each time once the task id is in the activity's heartbeat details
 * (which Temporal hands to the next attempt), and restarted: the next attempt polls the same task
 * instead of calling the tool again. Both wires: the 2025-11-25 tasks (SDK v1 server) and the
 * 2026-07-28 tasks extension.
 */
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { conversationOptions } from '../../src/client/conversation-options';
import { decodeFirst } from '../../src/client/decode-payloads';
import { dataConverter } from '../../src/temporal/data-converter';
import { conversationWorkflow } from '../../src/workflows';
import { messagesQuery, statusQuery, userMessageSignal } from '../../src/workflows/definitions';
import { pollUntil } from '../support/poll-until';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';
import { startTaskServer } from '../fixtures/start-task-server';


describe.each([
  ['2025-11-25 tasks', 'test/fixtures/task-2025-server.ts'],
  ['2026-07-28 tasks extension', 'test/fixtures/task-2026-server.ts'],
])('a task tool across worker kills (%s)', (_wire, fixture) => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let taskServer: { child: ChildProcess; url: string };
  const workers: WorkerProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-task-once-'));
  const taskLog = path.join(dir, 'task.log');

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    taskServer = await startTaskServer(fixture, taskLog);
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    taskServer?.child.kill('SIGKILL');
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('killed twice with SIGKILL mid-task: the tool’s body started once, and the turn completes with its result', async () => {
    const client = new Client({ connection, dataConverter });
    const taskQueue = `task-once-${randomUUID()}`;
    const mcpConfigPath = writeMcpConfig([{ name: 'tasks', transport: 'http', url: taskServer.url, headers: {}, tools: {} } as never]);
    const spawnWorker = async (): Promise<WorkerProcess> => {
      const worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });
      workers.push(worker);
      return worker;
    };
    const useTool = { type: 'tool_use' as const, id: 'toolu_task', name: 'slow_task', input: { text: 'once', ms: 8000 } };
    fake.enqueue(
      { kind: 'message', content: [{ type: 'text', text: 'Running the task.' }, useTool], stop_reason: 'tool_use' },
      { kind: 'message', content: [{ type: 'text', text: 'the task said: done: once' }], stop_reason: 'end_turn' },
    );
    let worker = await spawnWorker();
    const handle = await client.workflow.start(conversationWorkflow, {
      taskQueue,
      workflowId: `task-once-${randomUUID()}`,
      // A short heartbeat timeout lets the server notice each dead worker within seconds.
      args: [{ options: conversationOptions({ toolHeartbeatTimeoutMs: 2000, modelHeartbeatTimeoutMs: 2000 }) }],
    });
    await handle.signal(userMessageSignal, 'run the task');

    const started = (): string[] => (fs.existsSync(taskLog) ? fs.readFileSync(taskLog, 'utf8').split('\n').filter((line) => line.startsWith('started ')) : []);
    /** The pending tool call's attempt, whether a worker runs it, and the task id in its heartbeat details. */
    const pendingTask = async (): Promise<{ attempt: number; running: boolean; taskId: string | undefined } | undefined> => {
      const pending = (await handle.describe()).raw.pendingActivities?.find((activity) => activity.activityType?.name === 'callTool');
      if (pending === undefined) return undefined;
      const details = (await decodeFirst(client, pending.heartbeatDetails?.payloads)) as { taskId?: string } | undefined;
      const running = pending.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;
      return { attempt: pending.attempt ?? 1, running, taskId: details?.taskId };
    };

    const taskId = await pollUntil('the task to start', () => started()[0]?.slice('started '.length));
    for (let kill = 1; kill <= 2; kill++) {
      // The task id must have reached Temporal (a heartbeat) before the kill, or there is nothing to resume.
      // Attempt `kill` runs on the live worker (a retry is first only scheduled) with the task id recorded.
      await pollUntil(`attempt ${kill} to run with the task id`, async () => {
        const pending = await pendingTask();
        return pending?.attempt === kill && pending.running && pending.taskId === taskId ? true : undefined;
      });
      worker.kill9();
      expect(await worker.exited).toBeNull();
      worker = await spawnWorker();
    }

    await pollUntil('the turn to complete', async () => ((await handle.query(statusQuery)).turnsCompleted === 1 ? true : undefined), 90_000);
    expect((await handle.query(statusQuery)).lastTurn).toMatchObject({ status: 'completed', text: 'the task said: done: once', toolCalls: 1 });
    const messages = await handle.query(messagesQuery);
    // The tool's real result, not a host-written is_error result.
    expect(messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_task', content: 'done: once' }] });
    // The body started exactly once: two lost workers resumed the same task rather than calling the tool again.
    expect(started()).toEqual([`started ${taskId}`]);
    expect(fs.readFileSync(taskLog, 'utf8').split('\n').filter((line) => line === `finished ${taskId}`)).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
    // Three attempts of the one call: the first, then one after each kill.
    const history = await handle.fetchHistory();
    const attempts = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : []));
    expect(attempts).toContain(3);
  }, 180_000);
});
