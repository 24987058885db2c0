/**
 * A 2025 server that asks the host back on the open connection (issue 27), with a real SDK v1 server
 * (test/fixtures/asking-2025-server.ts), real Temporal, the compiled worker (killed with SIGKILL
 * and restarted) and the scripted fake Messages API playing Claude:
 * - a form sent as a 2025-11-25 task (the host a task receiver) waits in the conversation across a
 *   kill -9: the retried call's same question is the same request, answered once;
 * - a question the server withdraws (it cancels a plain `elicitation/create` with
 *   `notifications/cancelled`, or the task carrying one with `tasks/cancel`) leaves the waiting
 *   list (`status`, `pending`) while the call still runs, instead of staying there until the call
 *   ends with nobody wanting its answer; and no answer is kept for it, so the same question asked
 *   again (after the server's own timeout) waits anew.
 */
import { Client, Connection } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverter } from '../../src/temporal/data-converter';
import { statusQuery } from '../../src/workflows/definitions';
import type { ConversationStatus } from '../../src/conversation/types';
import { tsServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { pollUntil as waitFor } from '../support/poll-until';
import { toolResultText } from '../support/tool-result-text';

const askThenWithdraw = (id: string, asTask: boolean): ScriptStep => ({
  kind: 'message',
  content: [{ type: 'tool_use', id, name: 'ask_then_withdraw', input: { asTask, afterMs: 2500, thenMs: 4000 } }],
  stop_reason: 'tool_use',
});

describe('a 2025 server asks back: as a task, and withdrawn', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-asking-2025-'));
  const mcpConfigPath = path.join(dir, 'mcp.json');
  const serverLog = path.join(dir, 'server.log');
  const taskQueue = `asking-2025-${randomUUID()}`;
  const spawnWorker = (): Promise<WorkerProcess> => spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });

  beforeAll(async () => {
    const server = tsServer('asking', 'test/fixtures/asking-2025-server.ts') as unknown as { command: string; args: string[]; cwd: string };
    fs.writeFileSync(
      mcpConfigPath,
      JSON.stringify({ mcpServers: { asking: { command: server.command, args: server.args, cwd: server.cwd, env: { ASKING_2025_LOG: serverLog }, timeoutMs: 120_000 } } }),
    );
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    conversations = new ConversationClient(client, { taskQueue });
    worker = await spawnWorker();
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const statusOf = (id: string): Promise<ConversationStatus> => client.workflow.getHandle(id).query(statusQuery);

  const turnDone = (id: string): Promise<ConversationStatus> =>
    waitFor('the turn to finish', async () => {
      const s = await statusOf(id);
      return s.turnsCompleted >= 1 ? s : undefined;
    }, 90_000);
  /** How often the conversation took in a server's request: `inputRequested` signals in its history, each followed by a completed workflow task. */
  const inputRequestedSignals = async (id: string): Promise<number> => {
    const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const lastDone = events.map((e) => e.workflowTaskCompletedEventAttributes != null).lastIndexOf(true);
    return events.filter((e, i) => i < lastDone && e.workflowExecutionSignaledEventAttributes?.signalName === 'inputRequested').length;
  };
  const starts = (tool: string): string[] => (fs.existsSync(serverLog) ? fs.readFileSync(serverLog, 'utf8').split('\n') : []).filter((l) => l === `start ${tool}`);

  test('a form sent as a task waits across a kill -9 of the worker; the retried call’s same question is the same request, and the answer completes the tool', async () => {
    const id = `asking-2025-kill-${randomUUID()}`;
    const use = 'toolu_task_kill';
    fake.enqueue(
      { kind: 'message', content: [{ type: 'tool_use', id: use, name: 'ask_as_task', input: {} }], stop_reason: 'tool_use' },
      { kind: 'message', content: [{ type: 'text', text: 'Blue it is.' }], stop_reason: 'end_turn' },
    );
    await conversations.start('pick a colour', { id });
    const asked = await waitFor('the form to wait', async () => (await statusOf(id)).pendingInputs?.find((p) => p.toolUseId === use));
    expect(asked).toMatchObject({ server: 'asking', kind: 'elicitation', mode: 'form', message: 'Which colour?' });

    // The worker dies while the person thinks (its stdio server and the receiver's task with it); another takes over.
    worker.kill9Group();
    worker = await spawnWorker();
    // The 2025 call died with its worker: the new attempt calls again, and the server sends the same
    // question as a new task on the new connection, which is the same request.
    await waitFor('the tool to be called again', () => starts('ask_as_task').length >= 2, 90_000);
    await waitFor('the retried call to ask again', async () => (await inputRequestedSignals(id)) >= 2, 30_000);
    // Asked twice, waiting once: the same request id.
    expect((await statusOf(id)).pendingInputs?.map((p) => p.requestId)).toEqual([asked.requestId]);

    await conversations.respond(id, asked.requestId, { action: 'accept', content: { colour: 'blue' } });
    const done = await turnDone(id);
    expect(done.lastTurn).toMatchObject({ status: 'completed', text: 'Blue it is.' });
    expect(toolResultText(fake.requests, use)).toBe('answered accept blue');
    expect(starts('ask_as_task')).toHaveLength(2);
  }, 180_000);

  test.each([
    ['a plain request the server cancels', false, 'toolu_wd_plain', 'withdrawn plain'],
    ['a request sent as a task the server cancels', true, 'toolu_wd_task', 'withdrawn task: cancelled'],
  ])('%s leaves the waiting list while the call still runs', async (_what, asTask, toolUseId, expected) => {
    const id = `withdrawn-${randomUUID()}`;
    fake.enqueue(askThenWithdraw(toolUseId, asTask), { kind: 'message', content: [{ type: 'text', text: 'Never mind.' }], stop_reason: 'end_turn' });
    await conversations.start('ask me something', { id });

    const asked = await waitFor('the form to wait', async () => (await statusOf(id)).pendingInputs?.find((p) => p.toolUseId === toolUseId));
    expect(asked).toMatchObject({ server: 'asking', kind: 'elicitation', mode: 'form' });
    await waitFor('the withdrawn form to leave the waiting list', async () => ((await statusOf(id)).pendingInputs ?? []).length === 0, 15_000);
    // The call still runs (its server works on after withdrawing): the question left on its own.
    expect(toolResultText(fake.requests, toolUseId)).toBeUndefined();
    expect((await statusOf(id)).currentTurn).not.toBeNull();
    // Answering it now is refused: nothing waits.
    await expect(conversations.respond(id, asked.requestId, { action: 'accept', content: { colour: 'red' } })).rejects.toThrow(/already answered|no input request waits/);

    const done = await turnDone(id);
    expect(done.lastTurn).toMatchObject({ status: 'completed', text: 'Never mind.' });
    expect(toolResultText(fake.requests, toolUseId)).toBe(expected);
  }, 120_000);

  test('a question the server withdrew (its own timeout) and asks again waits anew, under the same id, and the answer reaches the second ask', async () => {
    const id = `asking-2025-twice-${randomUUID()}`;
    const use = 'toolu_twice';
    fake.enqueue(
      { kind: 'message', content: [{ type: 'tool_use', id: use, name: 'ask_twice', input: { afterMs: 3000, pauseMs: 3000 } }], stop_reason: 'tool_use' },
      { kind: 'message', content: [{ type: 'text', text: 'Green.' }], stop_reason: 'end_turn' },
    );
    await conversations.start('pick a colour, take your time', { id });
    const first = await waitFor('the form to wait', async () => (await statusOf(id)).pendingInputs?.find((p) => p.toolUseId === use));
    // The server times out: its question leaves the list, with no answer kept for it...
    await waitFor('the withdrawn form to leave the waiting list', async () => ((await statusOf(id)).pendingInputs ?? []).length === 0, 15_000);
    // ...so when it asks the same question again, that waits anew (a kept `cancel` would answer it at once).
    await waitFor('the server to ask again', async () => (await inputRequestedSignals(id)) >= 2, 30_000);
    const again = await waitFor('the form to wait again', async () => (await statusOf(id)).pendingInputs?.find((p) => p.toolUseId === use));
    expect(again.requestId).toBe(first.requestId);
    await conversations.respond(id, again.requestId, { action: 'accept', content: { colour: 'green' } });
    const done = await turnDone(id);
    expect(done.lastTurn).toMatchObject({ status: 'completed', text: 'Green.' });
    expect(toolResultText(fake.requests, use)).toBe('first timed out, then accept green');
  }, 120_000);
});
