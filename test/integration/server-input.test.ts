/**
 * Servers that ask back, end to end (issue 27): real Temporal (the run's dev server), the compiled
 * worker as a child process (killed with SIGKILL while a server's question waits, and restarted),
 * a real MCP server whose tools ask for a form, a URL visit, a completion and the roots
 * (test/fixtures/asking-server.ts, the SDK v2 server, logging each start of a tool body), pinned to
 * 2026-07-28 (the host keeps `input_required` in the workflow and calls again with the answers) and
 * to 2025-11-25 (the server sends its request on the open connection during the call), and the
 * scripted fake Messages API playing Claude (its recorded requests show what Claude got).
 */
import { Client, Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverter } from '../../src/temporal/data-converter';
import { respondToInputUpdate, statusQuery } from '../../src/workflows/definitions';
import type { ConversationStatus, MessageParam } from '../../src/conversation/types';
import type { PendingInput } from '../../src/input/input-requests';
import { WAITING_INPUT_ATTRIBUTE } from '../../src/workflows/progress-attributes';
import { runCliProcess, type CliRun } from '../support/cli-process';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { currentDetailsOf } from '../support/web-ui-metadata';
import { spawnWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { pollUntil } from '../support/poll-until';

const waitFor = pollUntil;

const toolUse = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_use' as const, id, name, input });
const toolUses = (...uses: Array<ReturnType<typeof toolUse>>): ScriptStep => ({ kind: 'message', content: uses, stop_reason: 'tool_use' });
const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

/** The tool_result blocks of the last user message of a request body the fake received. */
function lastToolResults(body: unknown): Array<{ tool_use_id: string; content: unknown; is_error?: boolean }> {
  const messages = (body as { messages: MessageParam[] }).messages;
  const last = messages[messages.length - 1];
  if (!last || typeof last.content === 'string') return [];
  return last.content.flatMap((b) => (b.type === 'tool_result' ? [{ tool_use_id: b.tool_use_id, content: b.content, ...(b.is_error ? { is_error: true } : {}) }] : []));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? '').join('') : '';
}

function lines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
}

describe('servers that ask back: elicitation, sampling, roots', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const workers: WorkerProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-input-'));
  const logs = { modern: path.join(dir, 'modern.log'), legacy: path.join(dir, 'legacy.log'), other: path.join(dir, 'other.log') };
  const mcpConfigPath = path.join(dir, 'mcp.json');
  const taskQueue = `input-${randomUUID()}`;

  const asking = (log: string, protocolVersion: string, extra: Record<string, unknown> = {}) => ({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/asking-server.ts')],
    env: { ASKING_SERVER_LOG: log },
    cwd: REPO_ROOT,
    protocolVersion,
    ...extra,
  });
  const spawnWorker = async (): Promise<WorkerProcess> => {
    const spawned = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });
    workers.push(spawned);
    return spawned;
  };
  const cli = (...args: string[]): Promise<CliRun> =>
    runCliProcess(args, { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue, MCP_CONFIG: mcpConfigPath });
  const statusOf = (id: string): Promise<ConversationStatus> => client.workflow.getHandle(id).query(statusQuery);
  const waitingInputs = (id: string): Promise<PendingInput[]> =>
    waitFor(`a request to wait in ${id}`, async () => {
      const list = (await statusOf(id)).pendingInputs ?? [];
      return list.length > 0 ? list : undefined;
    });
  const turnDone = (id: string, turns = 1): Promise<ConversationStatus> =>
    waitFor(`turn ${turns} of ${id} to finish`, async () => {
      const status = await statusOf(id);
      return status.turnsCompleted >= turns ? status : undefined;
    }, 90_000);
  const respond = (id: string, requestId: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>) =>
    client.workflow.getHandle(id).executeUpdate(respondToInputUpdate, { args: [{ requestId, action, ...(content !== undefined ? { content } : {}) }] });
  const toolResultIn = (toolUseId: string) => {
    const request = fake.requests.find((r) => lastToolResults(r.body).some((b) => b.tool_use_id === toolUseId));
    return request ? lastToolResults(request.body).find((b) => b.tool_use_id === toolUseId) : undefined;
  };

  beforeAll(async () => {
    fs.writeFileSync(
      mcpConfigPath,
      JSON.stringify({
        mcpServers: {
          modern: asking(logs.modern, '2026-07-28', { roots: ['file:///srv/docs'] }),
          legacy: asking(logs.legacy, '2025-11-25', { roots: ['file:///srv/docs'] }),
          auto: asking(logs.other, '2026-07-28', { sampling: 'auto', elicitation: 'decline' }),
          closed: asking(logs.other, '2026-07-28', { sampling: 'deny' }),
        },
      }),
    );
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    conversations = new ConversationClient(client, { taskQueue });
    worker = await spawnWorker();
  });
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const era of ['modern', 'legacy'] as const) {
    test(`${era === 'modern' ? '2026-07-28' : '2025-11-25'}: a form waits in the workflow across a kill -9 of the worker; the answer completes the tool`, async () => {
      const id = `input-form-${era}-${randomUUID()}`;
      const use = `toolu_form_${era}`;
      fake.enqueue(toolUses(toolUse(use, `${era}__book_table`)), endTurn('booked'));
      await conversations.start('book a table', { id });

      const [pending] = await waitingInputs(id);
      expect(pending).toMatchObject({
        requestId: expect.stringMatching(/^in_[0-9a-f]{16}$/),
        toolUseId: use,
        tool: `${era}__book_table`,
        server: era,
        kind: 'elicitation',
        mode: 'form',
        message: 'Who is the table for?',
        requestedSchema: { type: 'object', required: ['name'] },
        turnId: 1,
      });
      expect(await currentDetailsOf(client.workflow.getHandle(id))).toContain('waiting for your answer');
      await waitFor('McpHostWaitingInput to be true', async () => (await client.workflow.getHandle(id).describe()).typedSearchAttributes.get(WAITING_INPUT_ATTRIBUTE) === true);

      // The worker dies while the person thinks; another takes over.
      worker.kill9Group();
      worker = await spawnWorker();
      if (era === 'legacy') {
        // The 2025 call died with its worker: the new attempt calls again, and the server asks the
        // same question, which is the same request (not a second one).
        await waitFor('the tool to be called again', () => lines(logs.legacy).filter((l) => l === 'start book_table missing').length >= 2);
      }
      const still = await waitingInputs(id);
      expect(still.map((p) => p.requestId)).toEqual([pending?.requestId]);

      // Refused, with one line each, and nothing recorded.
      await expect(respond(id, pending?.requestId ?? '', 'accept', { size: 'four' })).rejects.toThrow(WorkflowUpdateFailedError);
      const refusal = await respond(id, pending?.requestId ?? '', 'accept', { name: 'Ada', size: 'four' }).catch((e: Error) => String((e.cause as Error | undefined)?.message ?? e.message));
      expect(refusal).toBe('field "size": must be a number, not "four"');
      const unknown = await respond(id, 'in_0000000000000000', 'accept').catch((e: Error) => String((e.cause as Error | undefined)?.message ?? e.message));
      expect(unknown).toMatch(/^no input request waits with id "in_0000000000000000"; waiting: in_/);
      expect((await statusOf(id)).pendingInputs).toHaveLength(1);

      if (era === 'modern') {
        // As a user would: the CLI lists the request, refuses a bad answer with one line, takes a good one.
        const listed = await cli('pending', '--json');
        expect(listed.code).toBe(0);
        const rows = JSON.parse(listed.stdout) as Array<{ id: string; pendingInputs?: PendingInput[] }>;
        expect(rows.find((r) => r.id === id)?.pendingInputs?.map((p) => p.requestId)).toEqual([pending?.requestId]);
        const bad = await cli('respond', id, pending?.requestId ?? '', '--json', '{"name":"Ada","size":0}');
        expect(bad.code).toBe(1);
        expect(bad.stderr.trim().split('\n')).toEqual(['mcp-host: field "size": must be at least 1, not 0']);
        const good = await cli('respond', id, pending?.requestId ?? '', '--json', '{"name":"Ada"}');
        expect(good.code).toBe(0);
        expect(good.stdout).toContain('0 still waiting');
      } else {
        const answered = await respond(id, pending?.requestId ?? '', 'accept', { name: 'Ada' });
        expect(answered).toMatchObject({ answered: { requestId: pending?.requestId }, stillWaiting: 0 });
      }
      const again = await respond(id, pending?.requestId ?? '', 'decline').catch((e: Error) => String((e.cause as Error | undefined)?.message ?? e.message));
      expect(again).toMatch(/already answered|no input request waits/);

      const status = await turnDone(id);
      expect(status.lastTurn?.text).toBe('booked');
      expect(status.pendingInputs).toEqual([]);
      await waitFor('McpHostWaitingInput to clear', async () => (await client.workflow.getHandle(id).describe()).typedSearchAttributes.get(WAITING_INPUT_ATTRIBUTE) === false);
      // The schema's defaults filled what the answer left out (SEP-1034).
      expect(textOf(toolResultIn(use)?.content)).toBe('booked Ada for 2, inside');
      const starts = lines(logs[era]).filter((l) => l.startsWith('start book_table'));
      // 2026-07-28: asked once, answered by a new call after the kill; 2025: the killed call ran again.
      expect(starts).toEqual(era === 'modern' ? ['start book_table missing', 'start book_table elicit'] : ['start book_table missing', 'start book_table missing', 'start book_table elicit']);
    }, 180_000);
  }

  test('an unattended conversation (inputTimeoutMs) declines a request nobody answers, and goes on', async () => {
    const id = `input-timeout-${randomUUID()}`;
    fake.enqueue(toolUses(toolUse('toolu_timeout', 'modern__book_table')), endTurn('nobody answered'));
    await conversations.start('book a table', { id, inputTimeoutMs: 1500 });
    await waitingInputs(id);
    const status = await turnDone(id);
    expect(status.pendingInputs).toEqual([]);
    expect(textOf(toolResultIn('toolu_timeout')?.content)).toBe('not booked (decline)');
  }, 120_000);

  test('URL mode: the URL is shown, never opened; accepting completes the tool', async () => {
    const id = `input-url-${randomUUID()}`;
    fake.enqueue(toolUses(toolUse('toolu_url', 'modern__visit_page')), endTurn('ok'));
    await conversations.start('connect', { id });
    const [pending] = await waitingInputs(id);
    expect(pending).toMatchObject({ kind: 'elicitation', mode: 'url', url: 'https://example.test/connect?state=abc', message: 'Connect your account' });
    await respond(id, pending?.requestId ?? '', 'accept');
    await turnDone(id);
    expect(textOf(toolResultIn('toolu_url')?.content)).toBe('visited');
  }, 120_000);

  test('sampling: auto is answered by Claude and counted; ask waits and a decline refuses it; deny never asks', async () => {
    const id = `input-sampling-${randomUUID()}`;
    fake.enqueue(
      toolUses(toolUse('toolu_auto', 'auto__summarize', { text: 'a long text about durable workflows' })),
      { kind: 'message', content: [{ type: 'text', text: 'Durable workflows survive crashes.' }], stop_reason: 'end_turn', usage: { input_tokens: 31, output_tokens: 7 } },
      endTurn('summarized'),
    );
    await conversations.start('summarize', { id });
    const status = await turnDone(id);
    expect(textOf(toolResultIn('toolu_auto')?.content)).toBe('summary: Durable workflows survive crashes.');
    expect(status.sampling).toEqual({ calls: 1, usage: expect.objectContaining({ inputTokens: 31, outputTokens: 7 }) });
    const samplingRequest = fake.requests.find((r) => JSON.stringify(r.body).includes('Summarize in five words'));
    expect(samplingRequest?.body).toMatchObject({ max_tokens: expect.any(Number) });
    expect((samplingRequest?.body as { max_tokens: number }).max_tokens).toBeLessThanOrEqual(4096);

    // ask (the default): the request waits; declined, the server gets the refusal and Claude a tool error.
    const asked = `input-sampling-ask-${randomUUID()}`;
    fake.enqueue(toolUses(toolUse('toolu_ask', 'modern__summarize', { text: 'x' })), endTurn('refused'));
    await conversations.start('summarize', { id: asked });
    const [pending] = await waitingInputs(asked);
    expect(pending).toMatchObject({ kind: 'sampling', server: 'modern' });
    expect(pending?.message).toContain('Summarize in five words: x');
    const before = fake.requests.length;
    await respond(asked, pending?.requestId ?? '', 'decline');
    await turnDone(asked);
    expect(fake.requests.length).toBe(before + 1); // no completion was asked of Claude
    expect(toolResultIn('toolu_ask')).toMatchObject({ is_error: true });
    expect(textOf(toolResultIn('toolu_ask')?.content)).toContain('User rejected sampling request');

    // deny: the host does not declare sampling to that server, and nothing waits.
    const denied = `input-sampling-deny-${randomUUID()}`;
    fake.enqueue(toolUses(toolUse('toolu_deny', 'closed__summarize', { text: 'x' })), endTurn('no'));
    await conversations.start('summarize', { id: denied });
    const done = await turnDone(denied);
    expect(done.pendingInputs).toEqual([]);
    expect(done.sampling).toBeUndefined();
    expect(toolResultIn('toolu_deny')).toMatchObject({ is_error: true });
  }, 180_000);

  test('roots: the server gets its own roots and the conversation\'s, on both eras', async () => {
    const id = `input-roots-${randomUUID()}`;
    fake.enqueue(toolUses(toolUse('toolu_r26', 'modern__show_roots'), toolUse('toolu_r25', 'legacy__show_roots')), endTurn('roots shown'));
    await conversations.start('show roots', { id, roots: ['file:///home/me/project'] });
    await turnDone(id);
    expect(textOf(toolResultIn('toolu_r26')?.content)).toBe('roots: file:///srv/docs, file:///home/me/project');
    expect(textOf(toolResultIn('toolu_r25')?.content)).toBe('roots: file:///srv/docs, file:///home/me/project');
  }, 120_000);
});
