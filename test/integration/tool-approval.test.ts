/**
 * Tool approval end to end (issue 10): real Temporal (the run's dev server, with the conversation
 * search attributes), the compiled worker as a child process (killed and restarted while a call
 * waits), real MCP servers (the lab server, which logs each call of `slow_echo` to a file), the
 * fake Messages API (whose recorded request bodies show what Claude was sent), and the compiled CLI.
 *
 * mcp.json: server `lab` is `approval: "ask"` with `add` overridden to `auto`; server `vault` (the
 * same program, its own log) is `approval: "deny"`. Both list `slow_echo` and `add`, so Claude sees
 * `lab__slow_echo`, `lab__add`, `vault__slow_echo`, ….
 */
import { Client, Connection } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverter } from '../../src/temporal/data-converter';
import { messagesQuery, statusQuery } from '../../src/workflows/definitions';
import { WAITING_APPROVAL_ATTRIBUTE } from '../../src/workflows/progress-attributes';
import type { ConversationStatus, MessageParam } from '../../src/conversation/types';
import { runCliProcess, startInteractiveCli, type CliRun } from '../support/cli-process';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { currentDetailsOf } from '../support/web-ui-metadata';
import { spawnWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { pollUntil } from '../support/poll-until';

const waitFor = pollUntil;

const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id, name, input });
const toolUses = (...uses: Array<ReturnType<typeof toolUse>>): ScriptStep => ({ kind: 'message', content: uses, stop_reason: 'tool_use' });
const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

/** The tool_result blocks of the last user message of a request body the fake received (without the prompt cache's marks). */
function lastToolResults(body: unknown): unknown[] {
  const messages = (body as { messages: MessageParam[] }).messages;
  const last = messages[messages.length - 1];
  if (!last || typeof last.content === 'string') return [];
  return last.content.flatMap((b) => (b.type === 'tool_result' ? [(({ cache_control: _cache, ...block }) => block)(b)] : []));
}

function lines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
}

describe('tool approval (mcp.json approval: ask | deny)', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const workers: WorkerProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-approval-'));
  const labLog = path.join(dir, 'lab.log');
  const vaultLog = path.join(dir, 'vault.log');
  const mcpConfigPath = path.join(dir, 'mcp.json');
  const taskQueue = `approval-${randomUUID()}`;

  const labServer = (log: string) => ({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/lab-server.ts')],
    env: { LAB_LOG: log },
    cwd: REPO_ROOT,
  });
  const spawnWorker = async (): Promise<WorkerProcess> => {
    const spawned = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });
    workers.push(spawned);
    return spawned;
  };
  const cli = (...args: string[]): Promise<CliRun> =>
    runCliProcess(args, { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue, MCP_CONFIG: mcpConfigPath });
  const statusOf = (id: string): Promise<ConversationStatus> => client.workflow.getHandle(id).query(statusQuery);
  const waitingIds = async (id: string): Promise<string[]> => (await statusOf(id)).pendingApprovals.map((p) => p.toolUseId);

  beforeAll(async () => {
    fs.writeFileSync(
      mcpConfigPath,
      JSON.stringify({
        mcpServers: {
          lab: { ...labServer(labLog), approval: 'ask', toolApproval: { add: 'auto' } },
          vault: { ...labServer(vaultLog), approval: 'deny' },
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

  test('an ask call waits (status, search attribute, details) across a worker kill and restart; approve runs it', async () => {
    fake.enqueue(toolUses(toolUse('toolu_one', 'lab__slow_echo', { text: 'one', ms: 0 })), endTurn('done: echo: one'));
    const id = `approval-restart-${randomUUID()}`;
    await conversations.start('echo one', { id });
    const handle = client.workflow.getHandle(id);

    const [pending] = await waitFor('the call to wait for approval', async () => {
      const list = (await statusOf(id)).pendingApprovals;
      return list.length > 0 ? list : undefined;
    });
    expect(pending).toEqual({
      toolUseId: 'toolu_one',
      tool: 'lab__slow_echo',
      server: 'lab',
      mcpTool: 'slow_echo',
      arguments: { text: 'one', ms: 0 },
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      turnId: 1,
    });
    expect((await statusOf(id)).state).toBe('running');
    expect((await handle.describe()).typedSearchAttributes.get(WAITING_APPROVAL_ATTRIBUTE)).toBe(true);
    expect(await currentDetailsOf(handle)).toMatch(/\*\*waiting for approval\*\* \(1\): slow_echo \{"text":"one","ms":0\} · lab \(toolu_one, since /);
    expect(lines(labLog)).toEqual([]); // not run

    // The worker dies (with its MCP servers) while the call waits; a new one takes over.
    worker.kill9Group();
    await worker.exited;
    worker = await spawnWorker();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await waitFor('the new worker to answer', () => waitingIds(id))).toEqual(['toolu_one']);
    expect(lines(labLog)).toEqual([]);

    const answer = await conversations.approve(id, ['toolu_one']);
    expect(answer).toMatchObject({ decided: [{ toolUseId: 'toolu_one', tool: 'lab__slow_echo' }], stillWaiting: 0 });
    const status = await waitFor('the turn to complete', async () => {
      const s = await statusOf(id);
      return s.turnsCompleted === 1 ? s : undefined;
    });
    expect(status.lastTurn).toMatchObject({ status: 'completed', text: 'done: echo: one', toolCalls: 1 });
    expect(status.pendingApprovals).toEqual([]);
    expect(lines(labLog)).toEqual(['start one', 'end one']);
    expect((await handle.query(messagesQuery))[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_one', content: 'echo: one' }],
    });
    expect(lastToolResults(fake.requests.at(-1)?.body)).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_one', content: 'echo: one' }]);
    await waitFor('the search attribute to clear', async () => (await handle.describe()).typedSearchAttributes.get(WAITING_APPROVAL_ATTRIBUTE) === false);
    expect(await currentDetailsOf(handle)).not.toContain('waiting for approval');
  }, 180_000);

  test('parallel calls: auto runs at once, deny policy never runs, asks approved one by one (CLI and library), a user deny reaches Claude as is_error', async () => {
    fake.enqueue(
      toolUses(
        toolUse('toolu_a', 'lab__slow_echo', { text: 'a', ms: 0 }),
        toolUse('toolu_add', 'lab__add', { a: 1, b: 2 }),
        toolUse('toolu_v', 'vault__slow_echo', { text: 'v', ms: 0 }),
        toolUse('toolu_b', 'lab__slow_echo', { text: 'b', ms: 0 }),
        toolUse('toolu_c', 'lab__slow_echo', { text: 'c', ms: 0 }),
      ),
      endTurn('a and b ran; c was declined; v is not allowed.'),
    );
    const id = `approval-parallel-${randomUUID()}`;
    const requestsBefore = fake.requests.length;
    await conversations.start('five calls at once', { id });
    const handle = client.workflow.getHandle(id);
    await waitFor('three calls to wait', async () => (await waitingIds(id)).length === 3);
    expect(await waitingIds(id)).toEqual(['toolu_a', 'toolu_b', 'toolu_c']);
    // The auto call ran already: its activity is in the history while the others wait.
    await waitFor('the auto call to run', async () => {
      const history = await handle.fetchHistory();
      return (history.events ?? []).some((e) => e.activityTaskCompletedEventAttributes) &&
        (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callTool').length === 1;
    });

    // `pending` lists it once visibility has caught up with the search attribute.
    const listed = await waitFor('mcp-host pending to list the conversation', async () => {
      const run = await cli('pending');
      return run.code === 0 && run.stdout.includes(id) ? run : undefined;
    });
    expect(listed.stdout).toMatch(new RegExp(`${id}  \\(turn 1\\)\\n  slow_echo \\{"text":"a","ms":0\\} · lab \\(toolu_a, since [^)]+\\)\\n  slow_echo \\{"text":"b"`));
    const json = JSON.parse((await cli('pending', '--json')).stdout) as Array<{ id: string; pending: Array<{ toolUseId: string }> }>;
    expect(json.find((row) => row.id === id)?.pending.map((p) => p.toolUseId)).toEqual(['toolu_a', 'toolu_b', 'toolu_c']);
    expect((await conversations.pending()).find((row) => row.id === id)?.pending).toHaveLength(3);

    // One by one: b (CLI), then a (library), then c denied with a reason (CLI).
    const approveB = await cli('approve', id, 'toolu_b');
    expect(approveB).toMatchObject({ code: 0, stdout: 'approved toolu_b (lab__slow_echo); 2 still waiting\n' });
    await waitFor('b to run', () => lines(labLog).includes('end b'));
    expect(lines(labLog)).not.toContain('start a');
    expect(await waitingIds(id)).toEqual(['toolu_a', 'toolu_c']);

    const unknown = await cli('approve', id, 'toolu_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('mcp-host: no tool call waits for approval with id "toolu_nope"; waiting: toolu_a (lab__slow_echo), toolu_c (lab__slow_echo)\n');

    expect(await conversations.approve(id, ['toolu_a'])).toMatchObject({ decided: [{ toolUseId: 'toolu_a' }], stillWaiting: 1 });
    const denyC = await cli('deny', id, 'toolu_c', '--reason', 'not that one');
    expect(denyC).toMatchObject({ code: 0, stdout: 'denied toolu_c (lab__slow_echo)\n' });

    const status = await waitFor('the turn to complete', async () => {
      const s = await statusOf(id);
      return s.turnsCompleted === 1 ? s : undefined;
    });
    expect(status.lastTurn).toMatchObject({ status: 'completed', toolCalls: 5 });
    // All five results in ONE user message, in the tool_use order, as Claude received them.
    expect(fake.requests).toHaveLength(requestsBefore + 2);
    expect(lastToolResults(fake.requests.at(-1)?.body)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_a', content: 'echo: a' },
      { type: 'tool_result', tool_use_id: 'toolu_add', content: '3' },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_v',
        is_error: true,
        content: '[host] Not run: the host\'s policy does not allow tool "vault__slow_echo" (server "vault" is set to approval "deny"). Do not call it again; answer without it.',
      },
      { type: 'tool_result', tool_use_id: 'toolu_b', content: 'echo: b' },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_c',
        is_error: true,
        content: '[host] Not run: the user declined the call of tool "lab__slow_echo". Their reason: not that one',
      },
    ]);
    // The deny-policy tool never ran (its server's log has no line), nor did the denied one.
    expect(lines(vaultLog)).toEqual([]);
    expect(lines(labLog).filter((l) => l.endsWith(' c'))).toEqual([]);

    const nothing = await cli('deny', id);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toBe('mcp-host: nothing to deny: no tool call of this conversation waits for approval\n');
  }, 180_000);

  test('send exits 3 while its turn waits; cancelling the turn settles the waiting call, which never runs', async () => {
    fake.enqueue(endTurn('hello'), toolUses(toolUse('toolu_x', 'lab__slow_echo', { text: 'x', ms: 0 })));
    const id = `approval-send-${randomUUID()}`;
    await conversations.start('hi', { id, wait: true });
    const sent = await cli('send', id, 'echo x');
    expect(sent.code).toBe(3);
    expect(sent.stdout).toBe('');
    expect(sent.stderr).toContain(`turn 2 of ${id} waits for approval of 1 tool call:\n  slow_echo {"text":"x","ms":0} · lab (toolu_x, since `);
    expect(sent.stderr).toContain(`approve: mcp-host approve ${id} [TOOL_USE_ID…]   deny: mcp-host deny ${id} [TOOL_USE_ID…] [--reason TEXT]`);
    expect(await waitingIds(id)).toEqual(['toolu_x']);

    const cancelled = await conversations.cancelTurn(id);
    expect(cancelled).toMatchObject({ turnId: 2, status: 'cancelled' });
    const status = await statusOf(id);
    expect(status.pendingApprovals).toEqual([]);
    const messages = await client.workflow.getHandle(id).query(messagesQuery);
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_x', is_error: true, content: '[host] Not run: the turn was cancelled while tool "lab__slow_echo" waited for the user\'s approval.' }],
    });
    expect(lines(labLog).filter((l) => l.endsWith(' x'))).toEqual([]);
    await waitFor('the search attribute to clear', async () => (await client.workflow.getHandle(id).describe()).typedSearchAttributes.get(WAITING_APPROVAL_ATTRIBUTE) === false);
  }, 120_000);

  test('chat asks inline: y approves one call, "n REASON" denies the other', async () => {
    fake.enqueue(
      toolUses(toolUse('toolu_chat1', 'lab__slow_echo', { text: 'chat1', ms: 0 }), toolUse('toolu_chat2', 'lab__slow_echo', { text: 'chat2', ms: 0 })),
      endTurn('chat1 ran, chat2 was declined.'),
    );
    const id = `approval-chat-${randomUUID()}`;
    const chat = startInteractiveCli(['chat', '--id', id], { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue });
    try {
      await chat.waitFor('type a message');
      chat.write('echo two things');
      await chat.waitFor('approve slow_echo {"text":"chat1","ms":0} · lab? [y/N/a(ll)] ');
      expect(lines(labLog).filter((l) => l.includes('chat'))).toEqual([]);
      chat.write('y');
      await chat.waitFor('approve slow_echo {"text":"chat2","ms":0} · lab? [y/N/a(ll)] ');
      expect(chat.output()).toContain('approved toolu_chat1 (lab__slow_echo); 1 still waiting');
      chat.write('n not this one');
      await chat.waitFor('claude> chat1 ran, chat2 was declined.', 60_000);
      expect(chat.output()).toContain('denied toolu_chat2 (lab__slow_echo)');
      chat.write('/quit');
      expect(await chat.exited).toBe(0);
    } finally {
      chat.kill();
    }
    expect(lines(labLog).filter((l) => l.includes('chat'))).toEqual(['start chat1', 'end chat1']);
    expect(lastToolResults(fake.requests.at(-1)?.body)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_chat1', content: 'echo: chat1' },
      { type: 'tool_result', tool_use_id: 'toolu_chat2', is_error: true, content: '[host] Not run: the user declined the call of tool "lab__slow_echo". Their reason: not this one' },
    ]);
  }, 120_000);

  test('mcp-host tools shows each tool\'s mode from mcp.json (table and JSON)', async () => {
    const run = await cli('tools');
    expect(run.code).toBe(0);
    const row = (name: string): string | undefined => run.stdout.split('\n').find((l) => l.startsWith(`${name} `));
    expect(row('lab__slow_echo')).toMatch(/^lab__slow_echo\s+lab\s+slow_echo {2}\(approval: ask\)$/);
    expect(row('lab__add')).toMatch(/^lab__add\s+lab\s+add$/);
    expect(row('vault__add')).toMatch(/^vault__add\s+vault\s+add {2}\(approval: deny\)$/);
    const json = JSON.parse((await cli('tools', '--json')).stdout) as Array<{ claudeName: string; approval?: string }>;
    expect(Object.fromEntries(json.filter((r) => r.claudeName.endsWith('add')).map((r) => [r.claudeName, r.approval ?? 'auto']))).toEqual({ lab__add: 'auto', vault__add: 'deny' });
  }, 60_000);

  test('approve without ids approves every waiting call together', async () => {
    fake.enqueue(
      toolUses(toolUse('toolu_p', 'lab__slow_echo', { text: 'p', ms: 0 }), toolUse('toolu_q', 'lab__slow_echo', { text: 'q', ms: 0 })),
      endTurn('p and q ran.'),
    );
    const id = `approval-all-${randomUUID()}`;
    await conversations.start('two at once', { id });
    await waitFor('both calls to wait', async () => (await waitingIds(id)).length === 2);
    expect(await cli('approve', id)).toMatchObject({ code: 0, stdout: 'approved toolu_p (lab__slow_echo), toolu_q (lab__slow_echo)\n' });
    await waitFor('the turn to complete', async () => (await statusOf(id)).turnsCompleted === 1);
    expect(lastToolResults(fake.requests.at(-1)?.body)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_p', content: 'echo: p' },
      { type: 'tool_result', tool_use_id: 'toolu_q', content: 'echo: q' },
    ]);
  }, 60_000);
});
