/**
 * Worker Versioning (issue 31) on the real dev server, with two compiled worker processes of one
 * worker deployment and the runbook's own `temporal worker deployment` commands (docs/upgrades.md):
 *
 * - the deployment's first version makes itself current; conversations started there are pinned to it;
 * - a second version, ramped and then made current, takes new conversations;
 * - an idle conversation woken by `checkVersion` continues as new onto the new version, its messages whole;
 * - a conversation in the middle of a tool call stays on the old version until its turn ends, then moves;
 * - afterwards nothing runs on the old version, which can be stopped.
 */
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverter } from '../../src/temporal/data-converter';
import { WORKFLOW_BUNDLE_FILE } from '../../src/worker/workflow-bundle';
import { messagesQuery } from '../../src/workflows/definitions';
import type { McpServerConfig } from '../../src/mcp/config';
import { REPO_ROOT, tsServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { runningOn, runningOnQuery, temporalCliAt, versionOf, type RunVersion } from '../support/worker-deployment';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

/** The bundle the worker processes ran (dist/, built before integration tests). */
const BUNDLE_PATH = path.join(REPO_ROOT, 'dist', WORKFLOW_BUNDLE_FILE);
const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });
const slowEcho = (ms: number): ScriptStep => ({ kind: 'message', content: [{ type: 'tool_use', name: 'slow_echo', input: { text: 'hold', ms } }], stop_reason: 'tool_use' });

async function until<T>(read: () => Promise<T | undefined> | T | undefined, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('worker versioning', () => {
  const deploymentName = `mcp-host-test-${randomUUID().slice(0, 8)}`;
  const taskQueue = `versioning-${randomUUID()}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-versioning-'));
  const labLog = path.join(dir, 'lab.log');
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let conversations: ConversationClient;
  const workers: WorkerProcess[] = [];

  const temporalCli = temporalCliAt(temporalAddress());
  const startWorker = async (buildId: string): Promise<WorkerProcess> => {
    const worker = await spawnWorkerProcess({
      address: temporalAddress(),
      taskQueue,
      mcpConfigPath: writeMcpConfig([{ ...tsServer('lab', 'test/fixtures/lab-server.ts'), env: { LAB_LOG: labLog } } as McpServerConfig]),
      claudeBaseUrl: fake.url,
      env: { MCP_HOST_DEPLOYMENT: deploymentName, MCP_HOST_BUILD_ID: buildId },
    });
    workers.push(worker);
    return worker;
  };
  /** The latest run of a conversation: its id and the version it is pinned to. */
  const pinning = (id: string): Promise<RunVersion> => versionOf(client, id);

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    conversations = new ConversationClient(client, { taskQueue });
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('pinned until a newer version is current, then moved between turns; the old version drains', async () => {
    const a = await startWorker('a');
    expect(a.output.join('')).toContain(`as worker deployment version ${deploymentName}:a (conversations pinned`);
    await until(() => (a.output.join('').includes(`Worker deployment ${deploymentName}:a: the deployment's first version, now current`) ? true : undefined), 'version a to become current').catch((err: Error) => {
      throw new Error(`${err.message}\n${a.output.join('')}`);
    });

    // On version a: an idle conversation, and one in the middle of a 20 s tool call.
    fake.enqueue(endTurn('Idle now.'));
    const idle = await conversations.start('first', { wait: true });
    expect(idle.result?.status).toBe('completed');
    const idleBefore = await pinning(idle.id);
    expect(idleBefore).toMatchObject({ buildId: 'a', behavior: 'PINNED' });
    fake.enqueue(slowEcho(20_000), endTurn('Echoed.'));
    const busy = await conversations.start('echo slowly');
    await until(() => (fs.existsSync(labLog) && fs.readFileSync(labLog, 'utf8').includes('start hold') ? true : undefined), 'the tool call to start');
    const busyBefore = await pinning(busy.id);
    expect(busyBefore).toMatchObject({ buildId: 'a', behavior: 'PINNED' });

    // Version b: polls, is not current by itself; the runbook ramps it, then makes it current.
    const b = await startWorker('b');
    await until(() => (b.output.join('').includes(`Worker deployment ${deploymentName}:b: not current`) ? true : undefined), 'version b to report');
    // The server knows b's task queues once its pollers have registered them (a moment after it polls).
    await until(() => temporalCli('worker', 'deployment', 'set-ramping-version', '--deployment-name', deploymentName, '--build-id', 'b', '--percentage', '50', '--yes').catch(() => undefined), 'b to be accepted as ramping', 30_000);
    await temporalCli('worker', 'deployment', 'set-current-version', '--deployment-name', deploymentName, '--build-id', 'b', '--yes');
    const deployment = JSON.parse(await temporalCli('worker', 'deployment', 'describe', '--name', deploymentName, '--output', 'json')) as {
      routingConfig: { currentVersionBuildID: string };
      versionSummaries: Array<{ BuildID: string; drainageStatus: string }>;
    };
    expect(deployment.routingConfig.currentVersionBuildID).toBe('b');
    expect(deployment.versionSummaries.find((v) => v.BuildID === 'a')?.drainageStatus).toBe('draining');

    // Both conversations are told; the idle one moves now, with its messages whole.
    // The runbook's batch signal to every conversation still running on a.
    await temporalCli('workflow', 'signal', '--name', 'checkVersion', '--query', runningOnQuery(deploymentName, 'a'), '--yes');
    const moved = await until(async () => {
      const now = await pinning(idle.id);
      return now.runId !== idleBefore.runId && now.buildId === 'b' ? now : undefined;
    }, 'the idle conversation to move to b');
    expect(moved.behavior).toBe('PINNED');
    expect((await client.workflow.getHandle(idle.id).query(messagesQuery)).length).toBe(2);

    // The busy one stays on a while its tool runs, and moves once its turn has ended.
    expect(await pinning(busy.id)).toEqual(busyBefore);
    const busyMoved = await until(async () => {
      const now = await pinning(busy.id);
      return now.runId !== busyBefore.runId && now.buildId === 'b' ? now : undefined;
    }, 'the busy conversation to move after its turn', 90_000);
    expect(busyMoved.behavior).toBe('PINNED');
    const busyMessages: MessageParam[] = await client.workflow.getHandle(busy.id).query(messagesQuery);
    expect(busyMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(fs.readFileSync(labLog, 'utf8').match(/start hold/g)).toHaveLength(1);

    // New conversations and new turns run on b; nothing runs on a any more, and a can go.
    fake.enqueue(endTurn('Fresh on b.'), endTurn('Second turn on b.'));
    const fresh = await conversations.start('new one', { wait: true });
    expect(await pinning(fresh.id)).toMatchObject({ buildId: 'b', behavior: 'PINNED' });
    const second = await conversations.send(idle.id, 'again');
    expect(second.status).toBe('completed');
    expect((await pinning(idle.id)).buildId).toBe('b');
    await until(async () => ((await runningOn(client, deploymentName, 'a', taskQueue)) === 0 ? true : undefined), 'no conversation running on a');
    expect(await runningOn(client, deploymentName, 'b', taskQueue)).toBe(3);
    await a.stop();

    // The runs that moved (each ended by continue-as-new) replay with this code: the move is deterministic.
    for (const [id, runId] of [[idle.id, idleBefore.runId], [busy.id, busyBefore.runId]] as const) {
      const history = await client.workflow.getHandle(id, runId).fetchHistory();
      expect(history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
      await Worker.runReplayHistory({ workflowBundle: { codePath: BUNDLE_PATH }, dataConverter, replayName: `versioning-${runId}` }, history, id);
    }
  }, 240_000);
});
