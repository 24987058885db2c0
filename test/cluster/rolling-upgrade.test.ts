/**
 * A rolling upgrade under load on the PostgreSQL cluster (`npm run test:cluster`; issue 31), by the
 * runbook of docs/upgrades.md and its own `temporal worker deployment` commands.
 *
 * Version A (this build) runs 20 conversations in the middle of tool rounds (slow calls of the lab
 * server), some waiting for an approval. Version B is this build with a real workflow change
 * (test/fixtures/version-b.patch: the tool catalogue is listed again before each later round of a
 * turn, one more activity per round) applied to a copy, its workflows compiled and bundled there
 * (test/support/patched-build.ts); an A history fails to replay on B's bundle, so without versioning
 * the upgrade would break the conversations. B's workers are deployed beside A's, ramped,
 * made current; the approvals are given; the conversations finish their turn on A (pinned), move to B
 * by continue-as-new, and A drains and is stopped. Every conversation's next turn runs on B, new
 * conversations start on B, and every transcript is exact, with no non-determinism anywhere.
 */
import { Client, Connection } from '@temporalio/client';
import type { History } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startCluster, type Cluster } from '../../scripts/cluster/cluster';
import { startFakeMessagesApi, type FakeMessagesApi, type RecordedRequest, type ScriptStep } from '../../src/testing';
import { startConversation } from '../../src/client/commands';
import { ConversationClient } from '../../src/client/conversation-client';
import type { MessageParam } from '../../src/conversation/types';
import { dataConverter } from '../../src/temporal/data-converter';
import { WORKFLOW_BUNDLE_FILE } from '../../src/worker/workflow-bundle';
import { messagesQuery, statusQuery } from '../../src/workflows/definitions';
import { buildPatchedWorkflows } from '../support/patched-build';
import { pollUntil } from '../support/poll-until';
import { REPO_ROOT, tsServer } from '../support/repo';
import { runningOnQuery, temporalCliAt, versionOf, type TemporalCli } from '../support/worker-deployment';
import { spawnWorkerProcess, waitForLine, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

/** Conversations running on A when B is deployed. */
const CONVERSATIONS = 20;
/** Conversations 1..APPROVALS wait for an approval in their first turn's second round; the others run ROUNDS slow rounds. */
const APPROVALS = 6;
const ROUNDS = 3;
/**
 * A first-turn tool call: long enough that every first turn is still running when B becomes current
 * (B's deploy and ramp took 8–15 s on a loaded 2-core machine), and short enough that the drain ends
 * well within the server's 3-min drainage grace period the test waits for anyway.
 */
const TOOL_MS = 20_000;
/** A tool call of a later turn, of a new conversation, or before an approval. */
const SHORT_MS = 300;
/** Conversations started once B is current. */
const NEW_CONVERSATIONS = 2;
const WORKERS_PER_VERSION = 2;
const MODEL = 'claude-sonnet-4-6';
const PATCH = path.join(REPO_ROOT, 'test/fixtures/version-b.patch');
/**
 * The server's first drainage check of a version that stopped being current comes this long after
 * (its default `matching.wv.VersionDrainageStatusVisibilityGracePeriod`); then every 3 min.
 */
const DRAINAGE_GRACE_MS = 3 * 60_000;
/** The two build ids of the one deployment. */
const A = 'a';
const B = 'b';

/** One line per established fact, written as it happens (jest's console would add a stack to each). */
function fact(line: string): void {
  process.stderr.write(`[upgrade] ${line}\n`);
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** One tool call of a turn's plan, and what it answers. */
interface ToolStep {
  id: string;
  name: 'slow_echo' | 'add';
  input: Record<string, unknown>;
  result: string;
}

const echo = (c: number, turn: number, round: number, ms: number): ToolStep => {
  const text = `c${c}-t${turn}-r${round}`;
  return { id: `toolu_c${c}_t${turn}_r${round}`, name: 'slow_echo', input: { text, ms }, result: `echo: ${text}` };
};

/** The tool calls of conversation `c`'s turn `turn`, one per round. */
function plan(c: number, turn: number): ToolStep[] {
  if (turn === 1 && c <= APPROVALS) {
    // The second round's `add` needs the user's yes (mcp.json toolApproval: ask).
    return [echo(c, 1, 1, SHORT_MS), { id: `toolu_c${c}_t1_r2`, name: 'add', input: { a: c, b: 100 }, result: String(c + 100) }];
  }
  if (turn === 1 && c <= CONVERSATIONS) return Array.from({ length: ROUNDS }, (_, i) => echo(c, 1, i + 1, TOOL_MS));
  return [echo(c, turn, 1, SHORT_MS)];
}

const userText = (c: number, turn: number): string => (turn === 1 ? `conversation ${c}` : `conversation ${c} turn ${turn}`);
const hasToolResult = (m: MessageParam): boolean => JSON.stringify(m.content).includes('"tool_result"');

/** The model's answer, from the request alone: a retried call gets the same answer, as a replay would. */
function reply(request: RecordedRequest): ScriptStep {
  const messages = (request.body as { messages: MessageParam[] }).messages;
  const c = Number(/conversation (\d+)/.exec(JSON.stringify(messages[0]?.content))?.[1]);
  const turnStarts = messages.flatMap((m, i) => (m.role === 'user' && !hasToolResult(m) ? [i] : []));
  const turn = turnStarts.length;
  const round = messages.slice(turnStarts.at(-1) ?? 0).filter(hasToolResult).length + 1;
  const step = plan(c, turn)[round - 1];
  if (!step) return { kind: 'message', content: [{ type: 'text', text: `conversation ${c} turn ${turn} done` }], stop_reason: 'end_turn' };
  return {
    kind: 'message',
    content: [
      { type: 'text', text: `turn ${turn} round ${round}` },
      { type: 'tool_use', id: step.id, name: step.name, input: step.input },
    ],
    stop_reason: 'tool_use',
  };
}

/** Conversation `c`'s whole transcript after `turns` turns. */
function expectedTranscript(c: number, turns: number): MessageParam[] {
  return Array.from({ length: turns }, (_, t) => t + 1).flatMap((turn): MessageParam[] => [
    { role: 'user', content: userText(c, turn) },
    ...plan(c, turn).flatMap((step, i): MessageParam[] => [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: `turn ${turn} round ${i + 1}` },
          { type: 'tool_use', id: step.id, name: step.name, input: step.input },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: step.id, content: step.result }] },
    ]),
    { role: 'assistant', content: [{ type: 'text', text: `conversation ${c} turn ${turn} done` }] },
  ]);
}

/** The `slow_echo` texts a lab server started (its `start x` lines). */
function started(logFile: string): string[] {
  const lines = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n') : [];
  return lines.filter((l) => l.startsWith('start ')).map((l) => l.slice(6));
}

/** What the runbook's `temporal worker deployment describe --output json` says, in part. */
interface DeploymentDescription {
  routingConfig: { currentVersionBuildID?: string; rampingVersionBuildID?: string; rampingVersionPercentage?: number };
  versionSummaries: Array<{ BuildID: string; drainageStatus?: string }>;
}

/** The deployment's routing in a few words: `current a, ramping b at 25%`. */
function routingText({ routingConfig: r }: DeploymentDescription): string {
  return `current ${r.currentVersionBuildID ?? '-'}${r.rampingVersionBuildID ? `, ramping ${r.rampingVersionBuildID} at ${r.rampingVersionPercentage ?? 0}%` : ', no ramp'}`;
}

/** One run of a conversation, as the server recorded it. */
interface RecordedRun {
  runId: string;
  buildId: string | undefined;
  history: History;
  /** Activities scheduled in the run, by type. */
  activities: Record<string, number>;
  /** Workflow tasks that failed, and of those, for non-determinism. */
  taskFailures: number;
  nondeterminism: number;
  continuedAsNew: boolean;
}

const NONDETERMINISTIC = temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR;

/** Every run of conversation `id`, oldest first. */
async function runsOf(client: Client, id: string): Promise<RecordedRun[]> {
  const runs: Array<{ runId: string; startTime: Date }> = [];
  for await (const execution of client.workflow.list({ query: `WorkflowId = "${id}"` })) runs.push({ runId: execution.runId, startTime: execution.startTime });
  runs.sort((x, y) => x.startTime.getTime() - y.startTime.getTime());
  return Promise.all(
    runs.map(async ({ runId }): Promise<RecordedRun> => {
      const history = await client.workflow.getHandle(id, runId).fetchHistory();
      const events = history.events ?? [];
      const activities: Record<string, number> = {};
      for (const e of events) {
        const type = e.activityTaskScheduledEventAttributes?.activityType?.name;
        if (type) activities[type] = (activities[type] ?? 0) + 1;
      }
      const failures = events.filter((e) => e.workflowTaskFailedEventAttributes);
      return {
        runId,
        buildId: (await versionOf(client, id, runId)).buildId,
        history,
        activities,
        taskFailures: failures.length,
        nondeterminism: failures.filter((e) => e.workflowTaskFailedEventAttributes?.cause === NONDETERMINISTIC).length,
        continuedAsNew: events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes != null,
      };
    }),
  );
}

describe('rolling upgrade on the Postgres-backed cluster', () => {
  let cluster: Cluster | undefined;
  let fake: FakeMessagesApi | undefined;
  let connection: Connection | undefined;
  /** B's build, begun with the cluster's start. */
  let buildingB: Promise<string> | undefined;
  const workers: WorkerProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-upgrade-test-'));

  beforeAll(async () => {
    const began = Date.now();
    // B's build runs beside the cluster's start.
    buildingB = buildPatchedWorkflows(PATCH, path.join(dir, 'version-b')).then((root) => {
      fact(`version B: this build + test/fixtures/version-b.patch, its workflows compiled and bundled in ${seconds(Date.now() - began)} s (${root}/dist/${WORKFLOW_BUNDLE_FILE})`);
      return root;
    });
    buildingB.catch(() => undefined); // awaited (and its failure reported) by the test
    // Up to 20 minutes: on a fresh machine this builds the server with Go first.
    cluster = await startCluster({ log: fact });
    fact(`cluster started in ${seconds(Date.now() - began)} s`);
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: cluster.address });
  }, 20 * 60_000);

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await connection?.close();
    await fake?.close();
    await cluster?.stop();
    await buildingB?.catch(() => undefined); // not removed from under a build still running
    fs.rmSync(dir, { recursive: true, force: true });
  }, 3 * 60_000);

  test('A → B under load: 20 conversations mid-turn, approvals, ramp, drain; every transcript exact, new turns on B', async () => {
    if (!cluster || !fake || !connection || !buildingB) throw new Error('cluster not started');
    const client = new Client({ connection, dataConverter });
    const temporalCli: TemporalCli = temporalCliAt(cluster.address);
    const taskQueue = `upgrade-${randomUUID()}`;
    const deployment = `mcp-host-upgrade-${randomUUID().slice(0, 8)}`;
    const target = { client, taskQueue };
    const conversations = new ConversationClient(client, { taskQueue });
    // More steps than requests: retried model calls each take one, and the answer comes from `reply`.
    fake.enqueue(...Array.from({ length: (CONVERSATIONS + NEW_CONVERSATIONS) * 8 * 2 }, (): ScriptStep => ({ kind: 'respond', respond: reply })));

    const labLogs: Record<string, string[]> = { [A]: [], [B]: [] };
    const startVersion = async (buildId: string, root: string): Promise<WorkerProcess[]> =>
      Promise.all(
        Array.from({ length: WORKERS_PER_VERSION }, async (_, i) => {
          const labLog = path.join(dir, `lab-${buildId}${i + 1}.log`);
          labLogs[buildId]!.push(labLog);
          const mcpConfigPath = writeMcpConfig([tsServer('lab', 'test/fixtures/lab-server.ts', { LAB_LOG: labLog }, { toolApproval: { add: 'ask' } })]);
          const worker = await spawnWorkerProcess({
            address: cluster!.address,
            taskQueue,
            mcpConfigPath,
            claudeBaseUrl: fake!.url,
            root,
            env: { MCP_HOST_DEPLOYMENT: deployment, MCP_HOST_BUILD_ID: buildId },
          });
          workers.push(worker);
          return worker;
        }),
      );
    const describeVersion = async (buildId: string): Promise<Record<string, unknown>> =>
      JSON.parse(await temporalCli('worker', 'deployment', 'describe-version', '--deployment-name', deployment, '--build-id', buildId, '--output', 'json')) as Record<string, unknown>;
    const describeDeployment = async (): Promise<DeploymentDescription> =>
      JSON.parse(await temporalCli('worker', 'deployment', 'describe', '--name', deployment, '--output', 'json')) as DeploymentDescription;
    const countOn = async (buildId: string): Promise<number> => {
      const out = JSON.parse(await temporalCli('workflow', 'count', '--query', runningOnQuery(deployment, buildId), '--output', 'json')) as { count?: string | number };
      return Number(out.count ?? 0);
    };

    // Version A: this build, two workers; the deployment's first version makes itself current.
    const workersA = await startVersion(A, REPO_ROOT);
    await pollUntil('version A to become current', () =>
      workersA.some((w) => w.output.join('').includes(`Worker deployment ${deployment}:${A}: the deployment's first version, now current`)) || undefined,
    );
    fact(`version A (${deployment}:${A}, this build): workers pids ${workersA.map((w) => w.pid).join(' and ')}, the deployment's first version, current`);

    // B built before A's conversations start: their first turns are timed to outlast B's deploy, not its build.
    const rootB = await buildingB;

    // 20 conversations on A, each into its first turn's tool rounds.
    const ids: string[] = [];
    for (let c = 1; c <= CONVERSATIONS; c++) {
      const { id } = await startConversation(target, userText(c, 1), { id: `upgrade-${c}-${randomUUID()}`, conversation: {}, defaultModel: MODEL });
      ids.push(id);
    }
    const approvalIds = ids.slice(0, APPROVALS);
    const waitingIds = async (): Promise<string[]> => {
      const waiting = await Promise.all(approvalIds.map(async (id) => ((await client.workflow.getHandle(id).query(statusQuery)).pendingApprovals.length > 0 ? [id] : [])));
      return waiting.flat();
    };
    await pollUntil('every conversation to start a tool call on A', () => (labLogs[A]!.flatMap(started).length >= CONVERSATIONS ? true : undefined), 120_000);
    await pollUntil('the approval conversations to wait for approval', async () => ((await waitingIds()).length === APPROVALS ? true : undefined), 60_000);
    for (const id of ids) expect(await versionOf(client, id)).toMatchObject({ buildId: A, behavior: 'PINNED' });
    fact(
      `${CONVERSATIONS} conversations started on A, pinned: ${CONVERSATIONS - APPROVALS} in a slow_echo (${seconds(TOOL_MS)} s, ${ROUNDS} rounds), ` +
        `${APPROVALS} waiting for an approval of add after a first round`,
    );

    // Deploy B: its own build, beside A; it polls and takes nothing yet.
    const deployedAt = Date.now();
    const workersB = await startVersion(B, rootB);
    await Promise.all(workersB.map((w) => waitForLine(w, new RegExp(`Worker deployment ${deployment}:${B}: not current`))));
    const versionB = await describeVersion(B);
    const taskQueues = Object.entries(versionB).find(([key]) => /taskqueue/i.test(key))?.[1];
    fact(`version B (${deployment}:${B}, the patched build) deployed: workers pids ${workersB.map((w) => w.pid).join(' and ')}, not current; describe-version B's task queues: ${JSON.stringify(taskQueues ?? null)}`);

    // Ramp: the server accepts it once B's pollers have registered A's task queues.
    let tries = 0;
    await pollUntil(
      'B to be accepted as ramping',
      async () => {
        tries++;
        return temporalCli('worker', 'deployment', 'set-ramping-version', '--deployment-name', deployment, '--build-id', B, '--percentage', '25', '--yes').catch(() => undefined);
      },
      60_000,
    );
    fact(`ramp: set-ramping-version --build-id ${B} --percentage 25 accepted (${tries} tries); routing: ${routingText(await describeDeployment())}`);

    await temporalCli('worker', 'deployment', 'set-current-version', '--deployment-name', deployment, '--build-id', B, '--yes');
    const currentAt = Date.now();
    const statuses = await Promise.all(ids.map((id) => client.workflow.getHandle(id).query(statusQuery)));
    const midTurn = statuses.filter((s) => s.currentTurn !== null && s.turnsCompleted === 0).length;
    const waiting = statuses.filter((s) => s.pendingApprovals.length > 0).length;
    const routing = routingText(await describeDeployment());
    fact(
      `current: set-current-version --build-id ${B}, ${seconds(currentAt - deployedAt)} s after B's deploy; routing: ${routing}; ` +
        `${midTurn}/${CONVERSATIONS} conversations mid-turn on A (${waiting} waiting for an approval)`,
    );
    expect(midTurn).toBe(CONVERSATIONS);

    // New conversations start on B, while A's workers still poll.
    const newIds: string[] = [];
    for (let c = CONVERSATIONS + 1; c <= CONVERSATIONS + NEW_CONVERSATIONS; c++) {
      const { id } = await startConversation(target, userText(c, 1), { id: `upgrade-new-${c}-${randomUUID()}`, conversation: {}, defaultModel: MODEL });
      newIds.push(id);
    }

    // Runbook step 4: every conversation still on A is told (those mid-turn move when their turn ends).
    await temporalCli('workflow', 'signal', '--name', 'checkVersion', '--query', runningOnQuery(deployment, A), '--yes');
    fact(`checkVersion batch signal sent to ${runningOnQuery(deployment, A)}`);

    // The approvals, given now that B is current: those turns go on, on A.
    expect(await waitingIds()).toEqual(approvalIds);
    for (const id of approvalIds) await conversations.approve(id);
    fact(`${APPROVALS} approvals given after B became current`);

    // Drain: nothing runs on A any more (the runbook's count), then A's workers stop.
    const drainedIn = await pollUntil(
      'A to drain',
      async () => {
        await sleep(500);
        return (await countOn(A)) === 0 ? Date.now() - currentAt : undefined;
      },
      180_000,
    );
    const drainage = (await describeVersion(A)) as { drainageInfo?: { drainageStatus?: string } };
    fact(`A drained ${seconds(drainedIn)} s after B became current: temporal workflow count --query '${runningOnQuery(deployment, A)}' = 0; describe-version A's drainageStatus: ${drainage.drainageInfo?.drainageStatus ?? '?'}`);
    for (const worker of workersA) await worker.stop();
    fact(`A's workers stopped (SIGTERM): pids ${workersA.map((w) => w.pid).join(' and ')}`);

    // Every first turn ended on A; every conversation is on B now; the next turn runs there.
    for (const id of ids) expect(await versionOf(client, id)).toMatchObject({ buildId: B, behavior: 'PINNED' });
    const secondTurns = await Promise.all(ids.map((id, i) => conversations.send(id, userText(i + 1, 2))));
    expect(secondTurns.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
    for (const id of newIds) {
      await pollUntil('a new conversation to finish its turn', async () => ((await client.workflow.getHandle(id).query(statusQuery)).turnsCompleted === 1 ? true : undefined), 60_000);
    }
    fact(`second turns of all ${CONVERSATIONS} conversations and first turns of ${NEW_CONVERSATIONS} new ones completed, with A stopped`);

    // Transcripts, runs and histories.
    let exact = 0;
    let nondeterminism = 0;
    let taskFailures = 0;
    let runsChecked = 0;
    const firstRuns: Array<{ id: string; run: RecordedRun }> = [];
    for (const [i, id] of ids.entries()) {
      const c = i + 1;
      const messages = await client.workflow.getHandle(id).query(messagesQuery);
      expect(messages).toEqual(expectedTranscript(c, 2));
      exact++;
      const runs = await runsOf(client, id);
      // Run 1 on A: the whole first turn (A's code lists the tools once a turn), ended by the move.
      // Run 2 on B: the second turn, with B's extra listing before its second round.
      expect(runs.map((r) => r.buildId)).toEqual([A, B]);
      expect(runs[0]).toMatchObject({ continuedAsNew: true, activities: expect.objectContaining({ listTools: 1, callClaude: plan(c, 1).length + 1 }) });
      expect(runs[1]).toMatchObject({ continuedAsNew: false, activities: expect.objectContaining({ listTools: 2, callClaude: 2 }) });
      firstRuns.push({ id, run: runs[0]! });
      for (const run of runs) {
        nondeterminism += run.nondeterminism;
        taskFailures += run.taskFailures;
        runsChecked++;
      }
    }
    for (const [i, id] of newIds.entries()) {
      const c = CONVERSATIONS + i + 1;
      expect(await client.workflow.getHandle(id).query(messagesQuery)).toEqual(expectedTranscript(c, 1));
      exact++;
      const runs = await runsOf(client, id);
      expect(runs.map((r) => r.buildId)).toEqual([B]);
      expect(runs[0]!.activities).toMatchObject({ listTools: 2, callClaude: 2 });
      for (const run of runs) {
        nondeterminism += run.nondeterminism;
        taskFailures += run.taskFailures;
        runsChecked++;
      }
    }
    expect(nondeterminism).toBe(0);
    fact(`${exact}/${CONVERSATIONS + NEW_CONVERSATIONS} transcripts exact; ${runsChecked} runs: first turns on A (pinned through the approvals), second turns and new conversations on B (B's extra listTools in each); WorkflowTaskFailed: ${taskFailures}, non-determinism: ${nondeterminism}`);

    // Each tool call ran once: first turns' on A's lab servers, later ones on B's.
    const onA = labLogs[A]!.flatMap(started);
    const onB = labLogs[B]!.flatMap(started);
    const expectedA = ids.flatMap((_, i) => plan(i + 1, 1).filter((s) => s.name === 'slow_echo').map((s) => s.input.text as string));
    const expectedB = [...ids.map((_, i) => `c${i + 1}-t2-r1`), ...newIds.map((_, i) => `c${CONVERSATIONS + i + 1}-t1-r1`)];
    expect([...onA].sort()).toEqual([...expectedA].sort());
    expect([...onB].sort()).toEqual([...expectedB].sort());
    fact(`tool calls: ${onA.length} on A's lab servers, ${onB.length} on B's, each once`);

    // B's change is replay-breaking: an A history fails on B's bundle, and replays on A's.
    const sample = firstRuns[APPROVALS]!;
    const replay = (root: string, name: string): Promise<void> =>
      Worker.runReplayHistory({ workflowBundle: { codePath: path.join(root, 'dist', WORKFLOW_BUNDLE_FILE) }, dataConverter, replayName: name }, sample.run.history, sample.id);
    const replayOnB = replay(rootB, 'a-history-on-b');
    await expect(replayOnB).rejects.toThrow(DeterminismViolationError);
    // At the first round B adds: where A called Claude, B lists the tools first.
    await expect(replayOnB).rejects.toThrow(/scheduled event 'callClaude' does not match activity type of activity command 'listTools'/);
    await replay(REPO_ROOT, 'a-history-on-a');
    fact(`replay of A's run ${sample.run.runId} (3 tool rounds): on B's bundle DeterminismViolationError (callClaude in the history, listTools from B), on A's bundle fine`);

    // The server's own drainage status (the runbook's `describe`): it first looks once the grace period has passed.
    await sleep(currentAt + DRAINAGE_GRACE_MS - 10_000 - Date.now());
    const reported = await pollUntil(
      'the server to report A drained',
      async () => {
        await sleep(2000); // one CLI process every 2 s, not every 200 ms
        const info = ((await describeVersion(A)) as { drainageInfo?: { drainageStatus?: string } }).drainageInfo;
        return info?.drainageStatus === 'drained' ? Date.now() - currentAt : undefined;
      },
      currentAt + 5 * 60_000 - Date.now(),
    );
    fact(`describe-version A: drainageStatus drained, ${seconds(reported)} s after B became current; describe: ${(await describeDeployment()).versionSummaries.map((v) => `${v.BuildID} ${v.drainageStatus ?? ''}`).join(', ')}`);

    fact(
      `${exact - NEW_CONVERSATIONS}/${CONVERSATIONS} conversations exact across the upgrade (+${NEW_CONVERSATIONS}/${NEW_CONVERSATIONS} new ones on B); ` +
        `A drained in ${seconds(drainedIn)} s after B became current (the server said so after ${seconds(reported)} s); 0 non-determinism errors in ${runsChecked} runs`,
    );
  }, 10 * 60_000);
});
