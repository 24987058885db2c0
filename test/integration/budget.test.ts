/**
 * Cost control (issue 30) end to end, with the compiled worker, real Temporal, the lab MCP server
 * and the scripted fake Messages API: a token budget reached mid-turn (a large tool result) stops
 * the turn `budget_exceeded` before the next Claude call, with a line that says so; `status` shows
 * what is left; the CLI's `budget` raises it, and the next turn runs, the stopped turn's results
 * still in the history it sends.
 */
import { Client, Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { errorLine } from '../../src/client/cli';
import { ConversationClient } from '../../src/client/conversation-client';
import { renderStatus } from '../../src/client/render-status';
import { dataConverter } from '../../src/temporal/data-converter';
import { runCliProcess } from '../support/cli-process';
import { tsServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

describe('a conversation budget', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const taskQueue = `budget-${randomUUID()}`;

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    conversations = new ConversationClient(new Client({ connection, dataConverter }), { taskQueue });
    worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath: writeMcpConfig([tsServer('lab', 'test/fixtures/lab-server.ts')]), claudeBaseUrl: fake.url });
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await fake?.close();
  });

  test('reached mid-turn: budget_exceeded before the next Claude call; raised, the next turn runs', async () => {
    fake.enqueue(
      endTurn('你好。'),
      { kind: 'message', content: [{ type: 'tool_use', id: 'toolu_blob', name: 'blob', input: { seed: 'budget', size: 16_000 } }], stop_reason: 'tool_use' },
      // Never asked for in turn 2: the budget stops the turn first. Turn 3 gets it.
      endTurn('读完了。'),
    );
    const { id } = await conversations.start('你好', { wait: true, budget: { tokens: 4_000 } });
    const first = fake.requests.length;
    const stopped = await conversations.send(id, '读一下这份大文件');
    expect(stopped).toMatchObject({ status: 'budget_exceeded', modelCalls: 1, toolCalls: 1 });
    expect(stopped.error).toMatch(/^budget reached: \d+ of 4000 tokens spent, and the next Claude call's prompt is about \d+ more; raise it with `mcp-host budget ID`/);
    // The tool ran; no Claude call went out after it.
    expect(fake.requests.length - first).toBe(1);
    expect(fake.pending()).toBe(1);

    const status = await conversations.status(id);
    expect(status.budget).toMatchObject({ tokens: 4_000, left: { tokens: 4_000 - (status.usage.inputTokens + status.usage.outputTokens) } });
    expect(renderStatus(status)).toMatch(/^budget: 4000 tokens \(left \d+\)$/m);
    expect(status.lastTurn?.status).toBe('budget_exceeded');

    // A malformed budget is refused by the update, nothing recorded.
    const refused = await conversations.setBudget(id, { tokens: -1 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(errorLine(refused)).toMatch(/budget tokens must be a positive whole number/);

    // Raised with the CLI, as a user would.
    const cli = await runCliProcess(['budget', id, '--tokens', '100000', '--usd', '1'], { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue });
    expect(cli.code).toBe(0);
    expect(cli.stdout.trim()).toBe(`budget of ${id}: $1, 100000 tokens (from its next Claude call)`);
    const next = await conversations.send(id, '好了吗？');
    expect(next).toMatchObject({ status: 'completed', text: '读完了。' });
    // The stopped turn's tool result went out with the next turn's text, in one user message.
    const sent = (fake.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(JSON.stringify(sent.at(-1))).toContain('toolu_blob');
    expect(JSON.stringify(sent.at(-1))).toContain('好了吗？');
    expect((await conversations.status(id)).budget).toMatchObject({ usd: 1, tokens: 100_000 });
    await conversations.end(id);
  }, 120_000);
});
