/**
 * Failover time: how long a conversation stands still when its worker is killed with SIGKILL in
 * the middle of a tool call and a new worker is started at once (what a crash-looping container or
 * `kill -9` in production does). Per run, one conversation calls the lab server's `slow_echo`; each
 * time the call has started, the worker's whole process group (worker and MCP server) is killed at a
 * random moment of the call and a new worker process is spawned. Measured, on this machine's clock
 * (the dev server runs here too):
 *
 * - resume: kill → the retried attempt started on a live worker (the server's `lastStartedTime` of
 *   the pending activity, polled by DescribeWorkflowExecution); this is when the conversation
 *   progresses again;
 * - handoff: the final tool call completed → the next workflow task started (history event times),
 *   i.e. how long the workflow waited for a worker after the tool's result was in; a workflow task
 *   that goes to the dead worker's sticky queue waits here;
 * - lost: the last kill → the next Claude request, minus the tool's own duration: resume, the MCP
 *   server's start-up and handoff together, the time the conversation lost to that kill.
 *
 *   npx tsx bench/failover.ts                                    # this tree's dist/ (npm run build first)
 *   FAILOVER_ROOT=/tmp/before npx tsx bench/failover.ts          # another tree's build, its own defaults
 *   BENCH_RUNS=4 BENCH_KILLS=3 TEMPORAL_ADDRESS=127.0.0.1:7233 npx tsx bench/failover.ts
 *   BENCH_TOOL_MS=1600 BENCH_TRACE=1 npx tsx bench/failover.ts   # tool duration; each run's timeline
 *
 * The conversation is started through the measured tree's own `startConversation` with its default
 * options, so each build is measured with the timeouts it ships.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { google, temporal } from '@temporalio/proto';
import { startFakeMessagesApi, type FakeMessagesApi } from '../src/testing';
import { findTemporalCli } from '../src/temporal/find-temporal-cli';
import { devServerTuningArgs } from '../src/temporal/server-tuning';
import { median } from './median';

const REPO_ROOT = path.resolve(__dirname, '..');
/** The tree whose compiled worker and client code are measured. */
const ROOT = path.resolve(process.env.FAILOVER_ROOT ?? REPO_ROOT);
/** How long the tool runs when it is not killed. */
const TOOL_MS = Number(process.env.BENCH_TOOL_MS ?? 2000);
const EventType = temporal.api.enums.v1.EventType;

type Commands = typeof import('../src/client/commands');
type DataConverterModule = typeof import('../src/temporal/data-converter');

/** A worker process in its own process group. */
interface SpawnedWorker {
  child: ChildProcess;
  ready: Promise<void>;
  killGroup(): void;
}

function spawnWorker(address: string, taskQueue: string, mcpConfig: string, claudeUrl: string): SpawnedWorker {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/worker/main.js')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TEMPORAL_ADDRESS: address,
      MCP_HOST_TASK_QUEUE: taskQueue,
      MCP_CONFIG: mcpConfig,
      ANTHROPIC_API_KEY: 'sk-ant-bench-not-a-real-key',
      ANTHROPIC_BASE_URL: claudeUrl,
    },
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Worker: polling')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${String(code)}):\n${output}`)));
  });
  ready.catch(() => undefined);
  const killGroup = (): void => {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL');
    } catch {
      // already gone
    }
  };
  return { child, ready, killGroup };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function startLines(file: string): number {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('start ')).length : 0;
}

function timestampMs(t: google.protobuf.ITimestamp): number {
  return Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
}

/** The server's start time of the pending activity's attempt `attempt`, once it has started. */
async function attemptStarted(connection: Connection, workflowId: string, attempt: number): Promise<number | undefined> {
  const described = await connection.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId } });
  const pending = described.pendingActivities?.find((a) => a.activityType?.name === 'callTool');
  if (!pending || (pending.attempt ?? 0) < attempt) return undefined;
  const started = pending.lastStartedTime;
  if (!started || pending.state !== temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED) return undefined;
  if (process.env.BENCH_TRACE) {
    const heartbeat = pending.lastHeartbeatTime ? timestampMs(pending.lastHeartbeatTime) : 0;
    process.stderr.write(`      last heartbeat ${heartbeat}, attempt ${attempt} started ${timestampMs(started)}\n`);
  }
  return timestampMs(started);
}

function eventMs(event: temporal.api.history.v1.IHistoryEvent): number {
  return event.eventTime ? timestampMs(event.eventTime) : 0;
}

/** One conversation with `kills` kills; returns the resume time of each kill and the run's handoff and loss. */
async function runOnce(
  env: { address: string; connection: Connection; client: Client; fake: FakeMessagesApi; commands: Commands },
  kills: number,
): Promise<{ resumes: number[]; handoff: number; lost: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'failover-'));
  const labLog = path.join(dir, 'lab.log');
  const mcpConfig = path.join(dir, 'mcp.json');
  const lab = { command: process.execPath, args: ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/lab-server.ts')], env: { LAB_LOG: labLog }, cwd: REPO_ROOT };
  fs.writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { lab } }));
  const taskQueue = `failover-${randomUUID()}`;
  const workers: SpawnedWorker[] = [];
  const newWorker = (): SpawnedWorker => {
    const worker = spawnWorker(env.address, taskQueue, mcpConfig, env.fake.url);
    workers.push(worker);
    return worker;
  };
  let answeredAt = 0;
  env.fake.enqueue(
    { kind: 'message', content: [{ type: 'tool_use', id: 'toolu_failover', name: 'slow_echo', input: { text: 'failover', ms: TOOL_MS } }], stop_reason: 'tool_use' },
    {
      kind: 'respond',
      respond: () => {
        answeredAt = Date.now();
        return { kind: 'message', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' };
      },
    },
  );
  try {
    await newWorker().ready;
    const { id } = await env.commands.startConversation({ client: env.client, taskQueue }, 'echo slowly', { conversation: {}, defaultModel: 'claude-sonnet-4-6' });
    const resumes: number[] = [];
    let lastKill = 0;
    for (let k = 1; k <= kills; k++) {
      await waitFor(`tool call ${k} to start`, () => (startLines(labLog) >= k ? true : undefined));
      if (process.env.BENCH_TRACE && k > 1) process.stderr.write(`      tool started again ${((Date.now() - lastKill) / 1000).toFixed(3)} s after kill ${k - 1}\n`);
      // A random moment of the call, so kills fall at every phase of the heartbeat cycle.
      await sleep(300 + Math.random() * 1200);
      workers.at(-1)?.killGroup();
      lastKill = Date.now();
      if (process.env.BENCH_TRACE) process.stderr.write(`      killed at ${lastKill}\n`);
      const next = newWorker();
      let readyAt = 0;
      void next.ready.then(() => (readyAt = Date.now()));
      const started = await waitFor(`attempt ${k + 1} to start`, () => attemptStarted(env.connection, id, k + 1));
      await next.ready;
      resumes.push(started - lastKill);
      const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
      process.stderr.write(`    kill ${k}: resumed after ${s(started - lastKill)} (the new worker was ready after ${s(readyAt - lastKill)})\n`);
    }
    const handle = env.client.workflow.getHandle(id);
    await waitFor('the next Claude request', () => (answeredAt > 0 ? true : undefined));
    const events = (await handle.fetchHistory()).events ?? [];
    const completed = events.findIndex((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED && e.activityTaskCompletedEventAttributes !== undefined && events.some((s) => s.eventId?.toString() === e.activityTaskCompletedEventAttributes?.scheduledEventId?.toString() && s.activityTaskScheduledEventAttributes?.activityType?.name === 'callTool'));
    const nextStart = events.slice(completed + 1).find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    if (completed < 0 || !nextStart) throw new Error('no callTool completion followed by a workflow task in the history');
    const handoff = eventMs(nextStart) - eventMs(events[completed]!);
    if (process.env.BENCH_TRACE) {
      for (const e of events) process.stderr.write(`      ${((eventMs(e) - lastKill) / 1000).toFixed(3)} ${EventType[e.eventType ?? 0]} ${e.activityTaskStartedEventAttributes ? `attempt ${e.activityTaskStartedEventAttributes.attempt}` : ''}\n`);
      process.stderr.write(`      ${((answeredAt - lastKill) / 1000).toFixed(3)} Claude request\n`);
    }
    await handle.signal('end');
    return { resumes, handoff, lost: answeredAt - lastKill - TOOL_MS };
  } finally {
    for (const worker of workers) worker.killGroup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const kills = Number(process.env.BENCH_KILLS ?? 3);
  let server: TestWorkflowEnvironment | undefined;
  let address = process.env.TEMPORAL_ADDRESS;
  if (!address) {
    const cli = findTemporalCli();
    if (!cli) throw new Error('no Temporal CLI: run `npm run setup`');
    // The dev server as npm start runs it (src/temporal/server-tuning.ts).
    server = await TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path: cli.path }, ip: '127.0.0.1', extraArgs: devServerTuningArgs() } });
    address = server.address;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const commands = require(path.join(ROOT, 'dist/client/commands.js')) as Commands;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { dataConverter } = require(path.join(ROOT, 'dist/temporal/data-converter.js')) as DataConverterModule;
  const connection = await Connection.connect({ address });
  const fake = await startFakeMessagesApi({ mode: 'scripted' });
  try {
    const client = new Client({ connection, dataConverter });
    const resumes: number[] = [];
    const handoffs: number[] = [];
    const losses: number[] = [];
    for (let i = 1; i <= runs; i++) {
      process.stderr.write(`  run ${i}/${runs} (${ROOT})\n`);
      const result = await runOnce({ address, connection, client, fake, commands }, kills);
      resumes.push(...result.resumes);
      handoffs.push(result.handoff);
      losses.push(result.lost);
      process.stderr.write(`    handoff after the tool's result: ${(result.handoff / 1000).toFixed(2)} s; lost to the last kill: ${(result.lost / 1000).toFixed(2)} s\n`);
    }
    const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    console.log(`| measure | median | max | samples |\n|---|---:|---:|---:|`);
    console.log(`| resume (kill → retried attempt started) | ${s(median(resumes))} | ${s(Math.max(...resumes))} | ${resumes.length} |`);
    console.log(`| handoff (tool result → next workflow task) | ${s(median(handoffs))} | ${s(Math.max(...handoffs))} | ${handoffs.length} |`);
    console.log(`| lost (last kill → next Claude request − tool time) | ${s(median(losses))} | ${s(Math.max(...losses))} | ${losses.length} |`);
  } finally {
    await fake.close();
    await connection.close();
    await server?.teardown();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
