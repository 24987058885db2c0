/**
 * Fast tools end to end (mcp.json `fast` / `fastTools`, issue 11): a fast tool's call runs as a
 * Temporal local activity. Real Temporal (the run's dev server), real MCP servers (the lab and
 * scenario servers), the fake Messages API (its recorded request bodies show what Claude was sent).
 *
 * - In-process worker: a fast server and the same program not fast, side by side: the same
 *   conversation costs one workflow task less per tool round when the tool is fast, its result is
 *   a local-activity marker and no callTool activity is scheduled; a query waits for a running fast
 *   call; approval (`ask`) works before a fast call; a fast tool failing retryably spends the same
 *   attempt budget (3) and reaches Claude as the same `is_error` result.
 * - Compiled worker processes: the worker running a fast call is killed with its MCP servers; the
 *   workflow task times out, a new worker runs the call again and the turn ends with its real result.
 *   A worker stopped gracefully finishes a short fast call before it exits.
 */
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { History } from '@temporalio/common/lib/proto-utils';
import { startFakeMessagesApi, type FakeMessagesApi, type RecordedRequest, type ScriptStep } from '../../src/testing';
import { conversationOptions, WORKFLOW_TASK_TIMEOUT_MS } from '../../src/client/conversation-options';
import type { ContentBlockParam } from '../../src/conversation/types';
import { dataConverter } from '../../src/temporal/data-converter';
import { conversationWorkflow } from '../../src/workflows';
import { approveToolCallsUpdate, messagesQuery, sendMessageUpdate, statusQuery, userMessageSignal } from '../../src/workflows/definitions';
import { scenarioServer } from '../fixtures/reference-servers';
import { blocksOf, messagesOf, startConversation, waitFor } from '../support/loop-helpers';
import { REPO_ROOT, tsServer } from '../support/repo';
import { startTestWorker, temporalAddress, type TestWorker } from '../support/test-worker';
import { spawnWorkerProcess, type WorkerProcess } from '../support/worker-process';

const EventType = temporal.api.enums.v1.EventType;

const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id, name, input });
const toolUses = (...uses: Array<ReturnType<typeof toolUse>>): ScriptStep => ({ kind: 'message', content: uses, stop_reason: 'tool_use' });
const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

/** The tool_result blocks of the last message of a request (without the prompt cache's marks). */
function toolResultsOf(request: RecordedRequest | undefined): Array<Record<string, unknown>> {
  const messages = messagesOf(request);
  return blocksOf(messages[messages.length - 1])
    .filter((b): b is Extract<ContentBlockParam, { type: 'tool_result' }> => b.type === 'tool_result')
    .map(({ cache_control: _cache, ...block }) => block);
}

/**
 * What a history shows of the tool calls: workflow tasks from the first Claude call on (those before
 * it, the start, the update and the listing, may come as one task or several), local-activity
 * markers, callTool activities, workflow task timeouts.
 */
function countsOf(history: History): { workflowTasks: number; localActivities: number; callToolActivities: number; workflowTaskTimeouts: number } {
  const events = history.events ?? [];
  const firstClaudeCall = events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callClaude');
  return {
    workflowTasks: events.slice(firstClaudeCall).filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED).length,
    localActivities: events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length,
    callToolActivities: events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callTool').length,
    workflowTaskTimeouts: events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT).length,
  };
}

function lines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
}

describe('fast tools: calls as local activities (in-process worker)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-fast-'));
  const fastLog = path.join(dir, 'fast.log');
  const flakyLog = path.join(dir, 'flaky.log');
  const guardedLog = path.join(dir, 'guarded.log');
  let w: TestWorker;

  beforeAll(async () => {
    w = await startTestWorker({
      servers: [
        tsServer('fastlab', 'test/fixtures/lab-server.ts', { LAB_LOG: fastLog }, { fast: true }),
        tsServer('lab', 'test/fixtures/lab-server.ts'),
        // Only `internal_error` is fast here: the tool fails with JSON-RPC -32603 (retryable) every time.
        scenarioServer('flaky', { SCENARIO_TOOLS: 'internal_error|plain', SCENARIO_LOG: flakyLog }, { fastTools: ['internal_error'] }),
        // Fast and approval: ask: the call waits for its decision, then runs as a local activity.
        scenarioServer('guarded', { SCENARIO_TOOLS: 'guarded_op', SCENARIO_LOG: guardedLog }, { fast: true, approval: 'ask' }),
      ],
    });
  });
  afterAll(async () => {
    await w?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs one turn of three tool rounds of `add` on `server`; returns the requests it made and the history. */
  async function threeRounds(server: string): Promise<{ requests: RecordedRequest[]; history: History; turn: unknown }> {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      toolUses(toolUse(`toolu_${server}_1`, `${server}__add`, { a: 1, b: 2 })),
      toolUses(toolUse(`toolu_${server}_2`, `${server}__add`, { a: 3, b: 4 })),
      toolUses(toolUse(`toolu_${server}_3`, `${server}__add`, { a: 5, b: 6 })),
      endTurn('3, 7 and 11.'),
    );
    const handle = await startConversation(w, {}, `fast-${server}`);
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['add three times'] });
    return { requests: w.fake.requests.slice(from), history: await handle.fetchHistory(), turn };
  }

  test("a fast tool's real result reaches Claude; its calls are local-activity markers, and each round takes one workflow task less", async () => {
    const fast = await threeRounds('fastlab');
    const plain = await threeRounds('lab');
    for (const run of [fast, plain]) expect(run.turn).toMatchObject({ status: 'completed', text: '3, 7 and 11.', modelCalls: 4, toolCalls: 3 });

    // What Claude was sent: the tool's own results, exactly as without fast.
    expect(fast.requests.slice(1).map((r) => toolResultsOf(r))).toEqual([
      [{ type: 'tool_result', tool_use_id: 'toolu_fastlab_1', content: '3' }],
      [{ type: 'tool_result', tool_use_id: 'toolu_fastlab_2', content: '7' }],
      [{ type: 'tool_result', tool_use_id: 'toolu_fastlab_3', content: '11' }],
    ]);
    expect(plain.requests.slice(1).map((r) => toolResultsOf(r)[0]?.content)).toEqual(['3', '7', '11']);

    const fastCounts = countsOf(fast.history);
    const plainCounts = countsOf(plain.history);
    console.log(`workflow tasks from the first Claude call on, 3 tool rounds: fast ${fastCounts.workflowTasks}, not fast ${plainCounts.workflowTasks}`);
    expect(fastCounts).toMatchObject({ localActivities: 3, callToolActivities: 0, workflowTaskTimeouts: 0 });
    expect(plainCounts).toMatchObject({ localActivities: 0, callToolActivities: 3 });
    // One workflow task per Claude call when the tool is fast (the tool runs inside it); one more per
    // tool round when it is not.
    expect(fastCounts.workflowTasks).toBe(4);
    expect(plainCounts.workflowTasks).toBe(7);
  });

  test('while a fast call runs its workflow task stays open: a status query is answered when the call ends', async () => {
    w.fake.enqueue(toolUses(toolUse('toolu_fast_slow', 'fastlab__slow_echo', { text: 'hold', ms: 3000 })), endTurn('echo: hold'));
    const handle = await startConversation(w, {}, 'fast-query');
    const turn = handle.executeUpdate(sendMessageUpdate, { args: ['hold on'] });
    await waitFor('the fast call to start', () => (lines(fastLog).includes('start hold') ? true : undefined), 30_000);
    const askedAt = Date.now();
    const status = await handle.query(statusQuery);
    const answeredAfterMs = Date.now() - askedAt;
    console.log(`status query during a 3 s fast call: answered after ${answeredAfterMs} ms; the call had ended: ${lines(fastLog).includes('end hold')}`);
    expect(status.state).toBe('running');
    expect(lines(fastLog)).toContain('end hold');
    expect(await turn).toMatchObject({ status: 'completed', text: 'echo: hold' });
  });

  test('approval is unchanged before a fast call: an ask call waits, runs once approved, as a local activity', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(toolUses(toolUse('toolu_guarded', 'guarded_op', { n: 1 })), endTurn('approved and done'));
    const handle = await startConversation(w, {}, 'fast-approval');
    const turn = handle.executeUpdate(sendMessageUpdate, { args: ['do the guarded thing'] });
    await waitFor('the call to wait for approval', async () => ((await handle.query(statusQuery)).pendingApprovals.length > 0 ? true : undefined), 30_000);
    expect((await handle.query(statusQuery)).pendingApprovals.map((p) => p.toolUseId)).toEqual(['toolu_guarded']);
    expect(lines(guardedLog)).not.toContain('start guarded_op');
    await handle.executeUpdate(approveToolCallsUpdate, { args: [{ toolUseIds: ['toolu_guarded'] }] });
    expect(await turn).toMatchObject({ status: 'completed', text: 'approved and done', toolCalls: 1 });
    expect(toolResultsOf(w.fake.requests[from + 1])).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_guarded', content: 'called guarded_op {"n":1}' }]);
    expect(lines(guardedLog).filter((l) => l === 'start guarded_op')).toHaveLength(1);
    expect(countsOf(await handle.fetchHistory())).toMatchObject({ localActivities: 1, callToolActivities: 0 });
  });

  test('a fast tool failing retryably is tried 3 times (its budget), then Claude gets the same is_error result', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(toolUses(toolUse('toolu_flaky', 'internal_error', {}), toolUse('toolu_plain', 'plain', { x: 1 })), endTurn('The database is down.'));
    const handle = await startConversation(w, {}, 'fast-budget');
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['try the flaky tool'] });
    expect(turn).toMatchObject({ status: 'completed', modelCalls: 2, toolCalls: 2 });

    const [failed, plain] = toolResultsOf(w.fake.requests[from + 1]);
    expect(failed).toMatchObject({ tool_use_id: 'toolu_flaky', is_error: true });
    expect(failed?.content).toMatch(/^\[host\] Tool "internal_error" could not be run: mcp\.server_error: .*the database went away; tried 3 times$/);
    expect(plain).toEqual({ type: 'tool_result', tool_use_id: 'toolu_plain', content: 'called plain {"x":1}' });
    expect(lines(flakyLog).filter((l) => l === 'start internal_error')).toHaveLength(3);

    // The fast call is one marker (its final failure: non-retryable, third attempt); `plain` is not fast.
    const history = await handle.fetchHistory();
    expect(countsOf(history)).toMatchObject({ localActivities: 1, callToolActivities: 1 });
    const marker = (history.events ?? []).find((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')?.markerRecordedEventAttributes;
    expect(marker?.failure?.applicationFailureInfo).toMatchObject({ type: 'mcp.server_error', nonRetryable: true });
    expect((await handle.query(statusQuery))).toMatchObject({ hostToolErrors: 1 });
  });
});

describe('fast tools: the worker dies or stops during a fast call (compiled worker processes)', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  const workers: WorkerProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-fast-crash-'));
  const labLog = path.join(dir, 'lab.log');
  const mcpConfigPath = path.join(dir, 'mcp.json');
  let taskQueue = `fast-crash-${randomUUID()}`;

  const spawnWorker = async (): Promise<WorkerProcess> => {
    const worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    fs.writeFileSync(
      mcpConfigPath,
      JSON.stringify({
        mcpServers: {
          lab: {
            command: process.execPath,
            args: ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/lab-server.ts')],
            env: { LAB_LOG: labLog },
            cwd: REPO_ROOT,
            fastTools: ['slow_echo'],
          },
        },
      }),
    );
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('kill -9 of the worker (and its MCP servers) mid-call: the workflow task times out, a new worker runs the call again, the turn ends with the real result', async () => {
    const client = new Client({ connection, dataConverter });
    fake.enqueue(toolUses(toolUse('toolu_fast_crash', 'slow_echo', { text: 'crash', ms: 3000 })), endTurn('done: echo: crash'));
    let worker = await spawnWorker();
    const handle = await client.workflow.start(conversationWorkflow, {
      taskQueue,
      workflowId: `fast-crash-${randomUUID()}`,
      // The workflow task timeout every conversation gets (src/client/commands.ts).
      workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT_MS,
      args: [{ options: conversationOptions({}) }],
    });
    await handle.signal(userMessageSignal, 'echo crash slowly');

    await waitFor('the fast call to start', () => (lines(labLog).includes('start crash') ? true : undefined), 60_000);
    process.kill(-worker.pid, 'SIGKILL');
    const killedAt = Date.now();
    expect(await worker.exited).toBeNull();
    worker = await spawnWorker();

    await waitFor('the fast call to run again', () => (lines(labLog).filter((l) => l === 'start crash').length >= 2 ? true : undefined), 90_000);
    const rerunAfterMs = Date.now() - killedAt;
    console.log(`kill -9 during a fast call → the call running again on a new worker after ${(rerunAfterMs / 1000).toFixed(1)} s`);
    // It waits for the workflow task timeout (from the task's start, a moment before the call's), bounded generously.
    expect(rerunAfterMs).toBeGreaterThanOrEqual(WORKFLOW_TASK_TIMEOUT_MS - 1500);
    expect(rerunAfterMs).toBeLessThan(WORKFLOW_TASK_TIMEOUT_MS + 20_000);

    await waitFor('the turn to complete', async () => ((await handle.query(statusQuery)).turnsCompleted === 1 ? true : undefined), 60_000);
    expect((await handle.query(statusQuery)).lastTurn).toMatchObject({ status: 'completed', text: 'done: echo: crash', toolCalls: 1 });
    const messages = await handle.query(messagesQuery);
    expect(messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_fast_crash', content: 'echo: crash' }] });
    expect(toolResultsOf(fake.requests.at(-1))).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_fast_crash', content: 'echo: crash' }]);
    // At least once: the killed run never ended, the second did.
    expect(lines(labLog)).toEqual(['start crash', 'start crash', 'end crash']);
    const counts = countsOf(await handle.fetchHistory());
    expect(counts).toMatchObject({ localActivities: 1, callToolActivities: 0 });
    expect(counts.workflowTaskTimeouts).toBeGreaterThanOrEqual(1);
  }, 180_000);

  test('a graceful stop (SIGTERM) during a short fast call: the worker finishes the call and records it before it exits; the tool runs once', async () => {
    const client = new Client({ connection, dataConverter });
    taskQueue = `fast-stop-${randomUUID()}`;
    fake.enqueue(toolUses(toolUse('toolu_fast_stop', 'slow_echo', { text: 'stop', ms: 3000 })), endTurn('done: echo: stop'));
    const worker = await spawnWorker();
    const handle = await client.workflow.start(conversationWorkflow, {
      taskQueue,
      workflowId: `fast-stop-${randomUUID()}`,
      workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT_MS,
      args: [{ options: conversationOptions({}) }],
    });
    await handle.signal(userMessageSignal, 'echo stop slowly');
    await waitFor('the fast call to start', () => (lines(labLog).includes('start stop') ? true : undefined), 60_000);
    const stopping = worker.stop();
    await spawnWorker();
    await stopping;
    await waitFor('the turn to complete', async () => ((await handle.query(statusQuery)).turnsCompleted === 1 ? true : undefined), 60_000);
    expect((await handle.query(statusQuery)).lastTurn).toMatchObject({ status: 'completed', text: 'done: echo: stop', toolCalls: 1 });
    expect(lines(labLog).filter((l) => l.endsWith(' stop'))).toEqual(['start stop', 'end stop']);
    expect(countsOf(await handle.fetchHistory())).toMatchObject({ localActivities: 1, callToolActivities: 0, workflowTaskTimeouts: 0 });
  }, 120_000);
});
