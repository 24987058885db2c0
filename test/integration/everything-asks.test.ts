/**
 * `@modelcontextprotocol/server-everything` (2026.8.31, a 2025-era server on the SDK v1) through the
 * host for real (issue 27): its form and URL elicitation, sampling and roots tools, which it only
 * offers to a client that declares those capabilities, answered durably by a conversation (the
 * compiled worker, real Temporal, the scripted fake Messages API playing Claude for the turns and
 * for the sampling request). Its `trigger-long-running-operation` reports progress during the call.
 * Its async tools send the same requests as tasks (2025-11-25), which the host receives and answers
 * the same way, through the conversation: listed by `pending`, answered by `ConversationClient.respond`
 * (or the fake Messages API for sampling, `auto`), ended by the turn's cancel, after which the next
 * turn's form on the same connection reaches the next turn.
 */
import { Client, Connection } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverter } from '../../src/temporal/data-converter';
import { statusQuery, toolsQuery } from '../../src/workflows/definitions';
import type { ConversationStatus } from '../../src/conversation/types';
import type { PendingInput } from '../../src/input/input-requests';
import { everythingServer } from '../fixtures/reference-servers';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { pollUntil } from '../support/poll-until';
import { toolResultText } from '../support/tool-result-text';

const waitFor = pollUntil;

const toolUse = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_use' as const, id, name, input });
const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

describe('server-everything asks back through the host', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-everything-asks-'));
  const mcpConfigPath = path.join(dir, 'mcp.json');
  const taskQueue = `everything-asks-${randomUUID()}`;

  beforeAll(async () => {
    const { command, args } = everythingServer() as unknown as { command: string; args: string[] };
    fs.writeFileSync(mcpConfigPath, JSON.stringify({ mcpServers: { everything: { command, args, sampling: 'auto', roots: ['file:///srv/docs'], timeoutMs: 120_000 } } }));
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
  const nextInput = (id: string, kind: string): Promise<PendingInput> =>
    waitFor(`a ${kind} request to wait`, async () => (await statusOf(id)).pendingInputs?.find((p) => `${p.kind}/${p.mode ?? ''}` === kind));

  test('form and URL elicitation, sampling, roots and a long operation, one turn', async () => {
    const id = `everything-asks-${randomUUID()}`;
    fake.enqueue(
      {
        kind: 'message',
        content: [
          toolUse('toolu_ev_form', 'trigger-elicitation-request'),
          toolUse('toolu_ev_roots', 'get-roots-list'),
          toolUse('toolu_ev_long', 'trigger-long-running-operation', { duration: 2, steps: 4 }),
        ],
        stop_reason: 'tool_use',
      },
      {
        kind: 'message',
        content: [toolUse('toolu_ev_url', 'trigger-url-elicitation', { url: 'https://example.test/connect', message: 'Connect it' }), toolUse('toolu_ev_sample', 'trigger-sampling-request', { prompt: 'Say hi', maxTokens: 40 })],
        stop_reason: 'tool_use',
      },
      { kind: 'message', content: [{ type: 'text', text: 'Hi there.' }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 3 } },
      endTurn('All done.'),
    );
    await conversations.start('try everything', { id, roots: ['file:///home/me/project'] });
    const tools = await waitFor('the catalogue', async () => {
      const names = (await client.workflow.getHandle(id).query(toolsQuery)).tools.map((t) => t.name);
      return names.length > 0 ? names : undefined;
    });
    expect(tools).toEqual(
      expect.arrayContaining([
        'trigger-elicitation-request',
        'trigger-url-elicitation',
        'trigger-sampling-request',
        'get-roots-list',
        // Offered only to a client that declares itself a task receiver (src/mcp/tasks/receiver-edge.ts).
        'trigger-elicitation-request-async',
        'trigger-sampling-request-async',
      ]),
    );

    const form = await nextInput(id, 'elicitation/form');
    expect(form.requestedSchema).toMatchObject({ type: 'object' });
    await client.workflow.getHandle(id).executeUpdate('respondToInput', { args: [{ requestId: form.requestId, action: 'accept', content: { name: 'Ada', check: true } }] });

    const url = await nextInput(id, 'elicitation/url');
    expect(url).toMatchObject({ url: 'https://example.test/connect' });
    await client.workflow.getHandle(id).executeUpdate('respondToInput', { args: [{ requestId: url.requestId, action: 'accept' }] });

    const status = await waitFor('the turn to finish', async () => {
      const s = await statusOf(id);
      return s.turnsCompleted >= 1 ? s : undefined;
    }, 120_000);
    expect(status.lastTurn?.text).toBe('All done.');
    expect(toolResultText(fake.requests, 'toolu_ev_form')).toContain('Ada');
    expect(toolResultText(fake.requests, 'toolu_ev_url')).toContain('completed the URL elicitation');
    expect(toolResultText(fake.requests, 'toolu_ev_sample')).toContain('Hi there.');
    expect(toolResultText(fake.requests, 'toolu_ev_roots')).toContain('file:///srv/docs');
    expect(toolResultText(fake.requests, 'toolu_ev_roots')).toContain('file:///home/me/project');
    expect(toolResultText(fake.requests, 'toolu_ev_long')).toContain('Long running operation completed');
    expect(status.sampling).toEqual({ calls: 1, usage: expect.objectContaining({ inputTokens: 12, outputTokens: 3 }) });
  }, 240_000);

  test('the async tools: a form and a completion sent as tasks, received by the host and answered through the conversation', async () => {
    const id = `everything-asks-async-${randomUUID()}`;
    // The order the fake is asked in: the turn (the form's tool), the turn again (the completion's
    // tool), the completion itself (the `auto` policy asks Claude), the turn's end.
    fake.enqueue(
      { kind: 'message', content: [toolUse('toolu_ev_async_form', 'trigger-elicitation-request-async')], stop_reason: 'tool_use' },
      { kind: 'message', content: [toolUse('toolu_ev_async_sample', 'trigger-sampling-request-async', { prompt: 'Say hello', maxTokens: 40 })], stop_reason: 'tool_use' },
      { kind: 'message', content: [{ type: 'text', text: 'Hello, asynchronously.' }], stop_reason: 'end_turn', usage: { input_tokens: 9, output_tokens: 2 } },
      endTurn('Both done.'),
    );
    await conversations.start('try the async tools', { id });

    const form = await nextInput(id, 'elicitation/form');
    expect(form.message).toContain('async task demo');
    // Listed by `pending` like any request, and answered through the library as `mcp-host respond` does.
    const listed = await waitFor('pending to list the async form', async () =>
      (await conversations.pending()).find((c) => c.id === id)?.pendingInputs?.find((p) => p.requestId === form.requestId),
    );
    expect(listed).toMatchObject({ server: 'everything', kind: 'elicitation', mode: 'form' });
    await expect(conversations.respond(id, form.requestId, { action: 'accept', content: { name: 7 } })).rejects.toThrow(/name/);
    await conversations.respond(id, form.requestId, { action: 'accept', content: { name: 'Grace', favoriteColor: 'Blue', agreeToTerms: true } });

    const status = await waitFor('the turn to finish', async () => {
      const s = await statusOf(id);
      return s.turnsCompleted >= 1 ? s : undefined;
    }, 120_000);
    expect(status.lastTurn?.text).toBe('Both done.');
    const elicited = toolResultText(fake.requests, 'toolu_ev_async_form');
    expect(elicited).toContain('[COMPLETED]');
    expect(elicited).toContain('Grace');
    expect(elicited).not.toContain('[SYNC]');
    const sampled = toolResultText(fake.requests, 'toolu_ev_async_sample');
    expect(sampled).toContain('[COMPLETED]');
    expect(sampled).toContain('Hello, asynchronously.');
    expect(sampled).not.toContain('[SYNC]');
    expect(status.sampling).toEqual({ calls: 1, usage: expect.objectContaining({ inputTokens: 9, outputTokens: 2 }) });
  }, 240_000);

  test('the turn’s cancel ends an async form’s wait like a plain one; the next async form on the same connection is answered', async () => {
    const id = `everything-asks-async-cancel-${randomUUID()}`;
    fake.enqueue(
      { kind: 'message', content: [toolUse('toolu_ev_async_dropped', 'trigger-elicitation-request-async')], stop_reason: 'tool_use' },
      { kind: 'message', content: [toolUse('toolu_ev_async_again', 'trigger-elicitation-request-async')], stop_reason: 'tool_use' },
      endTurn('Answered this time.'),
    );
    await conversations.start('ask me, then never mind', { id });
    const dropped = await nextInput(id, 'elicitation/form');
    expect(await conversations.cancelTurn(id)).toMatchObject({ turnId: 1, status: 'cancelled' });
    const after = await statusOf(id);
    expect(after.pendingInputs ?? []).toEqual([]);
    // The cancelled request is gone: answering it now is refused, and nothing is recorded.
    await expect(conversations.respond(id, dropped.requestId, { action: 'accept', content: { name: 'late' } })).rejects.toThrow();

    await conversations.post(id, 'ask me again');
    // The cancelled call learns of its cancellation only at its next heartbeat: until then it is still
    // in flight on the connection, and the new call's form must not be lost to it (src/mcp/server-requests.ts).
    const again = await waitFor('the second async form', async () => (await statusOf(id)).pendingInputs?.find((p) => p.requestId !== dropped.requestId));
    expect(again.toolUseId).toBe('toolu_ev_async_again');
    await conversations.respond(id, again.requestId, { action: 'decline' });
    const done = await waitFor('the second turn to finish', async () => {
      const s = await statusOf(id);
      return s.turnsCompleted >= 2 ? s : undefined;
    }, 120_000);
    expect(done.lastTurn).toMatchObject({ turnId: 2, status: 'completed', text: 'Answered this time.' });
    expect(toolResultText(fake.requests, 'toolu_ev_async_dropped')).toContain('cancelled');
    expect(toolResultText(fake.requests, 'toolu_ev_async_again')).toContain('[DECLINED]');
  }, 240_000);
});
