/**
 * A 2025 server that stops waiting for its question (issue 27): it cancels a plain
 * `elicitation/create` (`notifications/cancelled`) or cancels the task that carries one
 * (`tasks/cancel`, the host being a task receiver). The question then leaves the conversation's
 * waiting list (`status`, `pending`) while the tool call still runs, instead of staying there until
 * the call ends with nobody wanting its answer. Real Temporal, the compiled worker, a real SDK v1
 * server (test/fixtures/withdrawing-server.ts) and the scripted fake Messages API playing Claude.
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
import type { ConversationStatus, MessageParam } from '../../src/conversation/types';
import { tsServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { pollUntil as waitFor } from '../support/poll-until';

const askThenWithdraw = (id: string, asTask: boolean): ScriptStep => ({
  kind: 'message',
  content: [{ type: 'tool_use', id, name: 'ask_then_withdraw', input: { asTask, afterMs: 2500, thenMs: 4000 } }],
  stop_reason: 'tool_use',
});

function toolResultText(requests: readonly { body: unknown }[], toolUseId: string): string | undefined {
  for (const request of requests) {
    const messages = (request.body as { messages?: MessageParam[] }).messages ?? [];
    const last = messages[messages.length - 1];
    if (!last || typeof last.content === 'string') continue;
    for (const block of last.content) {
      if (block.type === 'tool_result' && block.tool_use_id === toolUseId) {
        return typeof block.content === 'string' ? block.content : (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
      }
    }
  }
  return undefined;
}

describe('a question its server withdraws', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-withdrawn-'));
  const mcpConfigPath = path.join(dir, 'mcp.json');
  const taskQueue = `withdrawn-input-${randomUUID()}`;

  beforeAll(async () => {
    const server = tsServer('withdrawing', 'test/fixtures/withdrawing-server.ts') as unknown as { command: string; args: string[]; cwd: string };
    fs.writeFileSync(mcpConfigPath, JSON.stringify({ mcpServers: { withdrawing: { command: server.command, args: server.args, cwd: server.cwd, timeoutMs: 60_000 } } }));
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    conversations = new ConversationClient(client, { taskQueue });
    worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const statusOf = (id: string): Promise<ConversationStatus> => client.workflow.getHandle(id).query(statusQuery);

  test.each([
    ['a plain request the server cancels', false, 'toolu_wd_plain', 'withdrawn plain'],
    ['a request sent as a task the server cancels', true, 'toolu_wd_task', 'withdrawn task: cancelled'],
  ])('%s leaves the waiting list while the call still runs', async (_what, asTask, toolUseId, expected) => {
    const id = `withdrawn-${randomUUID()}`;
    fake.enqueue(askThenWithdraw(toolUseId, asTask), { kind: 'message', content: [{ type: 'text', text: 'Never mind.' }], stop_reason: 'end_turn' });
    await conversations.start('ask me something', { id });

    const asked = await waitFor('the form to wait', async () => (await statusOf(id)).pendingInputs?.find((p) => p.toolUseId === toolUseId));
    expect(asked).toMatchObject({ server: 'withdrawing', kind: 'elicitation', mode: 'form' });
    await waitFor('the withdrawn form to leave the waiting list', async () => ((await statusOf(id)).pendingInputs ?? []).length === 0, 15_000);
    // The call still runs (its server works on after withdrawing): the question left on its own.
    expect(toolResultText(fake.requests, toolUseId)).toBeUndefined();
    expect((await statusOf(id)).currentTurn).not.toBeNull();
    // Answering it now is refused: nothing waits.
    await expect(conversations.respond(id, asked.requestId, { action: 'accept', content: { colour: 'red' } })).rejects.toThrow(/already answered|no input request waits/);

    const done = await waitFor('the turn to finish', async () => {
      const s = await statusOf(id);
      return s.turnsCompleted >= 1 ? s : undefined;
    });
    expect(done.lastTurn).toMatchObject({ status: 'completed', text: 'Never mind.' });
    expect(toolResultText(fake.requests, toolUseId)).toBe(expected);
  }, 120_000);
});
