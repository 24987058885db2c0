/**
 * docker-compose.yml's topology, proven without Docker (`npm run test:cluster`, not part of `npm test`):
 * PostgreSQL, the schema job, one server process with frontend/history/matching/worker, the
 * namespace job, and two worker processes on one task queue. Several conversations run tool rounds
 * with a slow tool; one worker is `kill -9`ed (with its MCP children) mid-flight; the other finishes
 * every conversation, and every transcript is exact: nothing lost, nothing doubled.
 */
import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startCluster, type Cluster } from '../../scripts/cluster/cluster';
import { startFakeMessagesApi, type FakeMessagesApi, type RecordedRequest, type ScriptStep } from '../../src/testing';
import { startConversation } from '../../src/client/commands';
import type { MessageParam } from '../../src/conversation/types';
import { dataConverter } from '../../src/temporal/data-converter';
import { messagesQuery, statusQuery } from '../../src/workflows/definitions';
import { waitFor } from '../support/loop-helpers';
import { tsServer } from '../support/repo';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

const CONVERSATIONS = 6;
const ROUNDS = 3;
const TOOL_MS = 2500;

/** One line per established fact, written as it happens (jest's console would add a stack to each). */
function fact(line: string): void {
  process.stderr.write(`[cluster] ${line}\n`);
}

const toolId = (c: number, round: number): string => `toolu_c${c}_r${round}`;
const toolText = (c: number, round: number): string => `c${c}-r${round}`;

/** The model's answer, from the request alone: so a retried call gets the same answer, as a replay would. */
function reply(request: RecordedRequest): ScriptStep {
  const messages = (request.body as { messages: MessageParam[] }).messages;
  const c = Number(/conversation (\d+)/.exec(JSON.stringify(messages[0]?.content))?.[1]);
  const round = messages.filter((m) => JSON.stringify(m.content).includes('"tool_result"')).length + 1;
  if (round > ROUNDS) return { kind: 'message', content: [{ type: 'text', text: `conversation ${c} done` }], stop_reason: 'end_turn' };
  return {
    kind: 'message',
    content: [
      { type: 'text', text: `round ${round}` },
      { type: 'tool_use', id: toolId(c, round), name: 'slow_echo', input: { text: toolText(c, round), ms: TOOL_MS } },
    ],
    stop_reason: 'tool_use',
  };
}

function expectedTranscript(c: number): MessageParam[] {
  const rounds = Array.from({ length: ROUNDS }, (_, i) => i + 1).flatMap((round): MessageParam[] => [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `round ${round}` },
        { type: 'tool_use', id: toolId(c, round), name: 'slow_echo', input: { text: toolText(c, round), ms: TOOL_MS } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId(c, round), content: `echo: ${toolText(c, round)}` }] },
  ]);
  return [{ role: 'user', content: `conversation ${c}` }, ...rounds, { role: 'assistant', content: [{ type: 'text', text: `conversation ${c} done` }] }];
}

/** Tool calls a worker's lab server started and did not finish (by the `start x`/`end x` lines of its log). */
function labCalls(logFile: string): { started: string[]; unfinished: string[] } {
  const lines = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n') : [];
  const started = lines.filter((l) => l.startsWith('start ')).map((l) => l.slice(6));
  const ended = new Set(lines.filter((l) => l.startsWith('end ')).map((l) => l.slice(4)));
  return { started, unfinished: started.filter((t) => !ended.has(t)) };
}

describe('Postgres-backed cluster, two worker processes, one killed', () => {
  let cluster: Cluster | undefined;
  let fake: FakeMessagesApi | undefined;
  let connection: Connection | undefined;
  const workers: WorkerProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cluster-test-'));

  beforeAll(async () => {
    const started = Date.now();
    // Up to 20 minutes: on a fresh machine this builds the server with Go first.
    cluster = await startCluster({ log: fact });
    fact(`cluster started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: cluster.address });
  }, 20 * 60_000);

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await connection?.close();
    await fake?.close();
    await cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('every conversation completes exactly after kill -9 of one worker', async () => {
    if (!cluster || !fake || !connection) throw new Error('cluster not started');
    const client = new Client({ connection, dataConverter });
    const taskQueue = `cluster-${randomUUID()}`;
    // More steps than requests: retried model calls each take one, and the answer comes from `reply`.
    fake.enqueue(...Array.from({ length: CONVERSATIONS * (ROUNDS + 1) * 3 }, (): ScriptStep => ({ kind: 'respond', respond: reply })));

    // One lab log per worker, so the test can tell which worker ran (and was running) which call.
    const labLogs = ['a', 'b'].map((name) => path.join(dir, `lab-${name}.log`));
    for (const labLog of labLogs) {
      const mcpConfigPath = writeMcpConfig([tsServer('lab', 'test/fixtures/lab-server.ts', { LAB_LOG: labLog })]);
      workers.push(await spawnWorkerProcess({ address: cluster.address, taskQueue, mcpConfigPath, claudeBaseUrl: fake.url }));
    }
    fact(`two workers: pids ${workers.map((w) => w.pid).join(' and ')} on task queue ${taskQueue}`);

    const ids: string[] = [];
    for (let c = 1; c <= CONVERSATIONS; c++) {
      const { id } = await startConversation({ client, taskQueue }, `conversation ${c}`, {
        id: `cluster-${c}-${randomUUID()}`,
        // Short heartbeat timeouts: the server notices the dead worker's calls within seconds.
        conversation: { toolHeartbeatTimeoutMs: 5000, modelHeartbeatTimeoutMs: 5000 },
        defaultModel: 'claude-sonnet-4-6',
      });
      ids.push(id);
    }

    // Kill once every conversation has a tool call started and some worker has calls in flight.
    const victim = await waitFor(
      'every conversation to start a tool call, with calls in flight',
      () => {
        const calls = labLogs.map(labCalls);
        if (calls.reduce((n, x) => n + x.started.length, 0) < CONVERSATIONS) return undefined;
        const index = calls.findIndex((x) => x.unfinished.length > 0);
        return index === -1 ? undefined : { index, ...calls[index]! };
      },
      120_000,
    );
    const killed = workers[victim.index]!;
    const survivor = workers[1 - victim.index]!;
    const survivorLog = labLogs[1 - victim.index]!;
    const survivorBefore = labCalls(survivorLog).started.length;
    process.kill(-killed.pid, 'SIGKILL'); // the worker's process group: the worker and its MCP server
    expect(await killed.exited).toBeNull();
    fact(
      `killed worker pid ${killed.pid} (kill -9 of its process group) after it started ${victim.started.length} tool calls, ` +
        `${victim.unfinished.length} in flight (${victim.unfinished.join(', ')}); survivor pid ${survivor.pid} had started ${survivorBefore}`,
    );

    const handles = ids.map((id) => client.workflow.getHandle(id));
    await waitFor(
      'every conversation to finish its turn',
      async () => ((await Promise.all(handles.map(async (h) => (await h.query(statusQuery)).turnsCompleted))).every((n) => n === 1) ? true : undefined),
      240_000,
    );

    for (const [i, handle] of handles.entries()) {
      expect(await handle.query(messagesQuery)).toEqual(expectedTranscript(i + 1));
      expect((await handle.query(statusQuery)).lastTurn).toMatchObject({ status: 'completed', toolCalls: ROUNDS, modelCalls: ROUNDS + 1 });
    }
    // The calls cut off by the kill ran again, to the end, on the survivor.
    const survivorCalls = labCalls(survivorLog);
    for (const text of victim.unfinished) expect(survivorCalls.started).toContain(text);
    expect(survivorCalls.unfinished).toEqual([]);
    // And the server's history says so: a second attempt, after the first one's heartbeat timeout.
    const retried = await Promise.all(
      handles.map(async (h) => ((await h.fetchHistory()).events ?? []).filter((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1).length),
    );
    expect(retried.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(victim.unfinished.length);
    fact(
      `${CONVERSATIONS} conversations × ${ROUNDS} tool rounds: all transcripts exact (${2 + 2 * ROUNDS} messages each, none lost or doubled); ` +
        `survivor ran ${survivorCalls.started.length - survivorBefore} tool calls after the kill; activity retries in history: ${retried.join(', ')}`,
    );
  }, 10 * 60_000);
});
