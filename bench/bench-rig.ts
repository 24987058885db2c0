/**
 * Everything the designs run on, started once per benchmark: one Temporal dev server (the
 * existing CLI binary, never a download; in-memory SQLite), one fake Messages API behind the real
 * Anthropic SDK, one stdio MCP server, and three workers on their own task queues — the real
 * conversation workflow and activities (with the project's data converter, as shipped), and the
 * naive workflow with its whole-array activity, once with the SDK's default converter and once
 * with the project's.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { createActivities } from '../src/activities';
import { createClaudeClient } from '../src/claude/create-claude-client';
import { startFakeMessagesApi, type RecordedRequest, type ScriptStep } from '../src/testing';
import type { McpServerConfig } from '../src/mcp/config';
import { McpConnections } from '../src/mcp/mcp-connections';
import { dataConverter } from '../src/temporal/data-converter';
import { findTemporalCli } from '../src/temporal/find-temporal-cli';
import { createConversationWorker } from '../src/worker/create-worker';
import { workflowBundleOptions } from '../src/worker/workflow-bundle';
import { createCallClaudeWithMessages } from './naive/call-claude-with-messages';
import type { ScriptedTurn } from './scripted-turn';
import { tagOf } from './turn-settings';
import { quietLogger } from './quiet-logger';

/** Not a key: the fake accepts any; it only has to look like one. */
const BENCH_API_KEY = 'sk-ant-bench-not-a-real-key';
const REPO_ROOT = path.resolve(__dirname, '..');
/**
 * The client's receive limit. The naive design's history pages and query answers exceed gRPC's
 * 4 MB default (the SDK's own 128 MB default is set under a key grpc-js ignores).
 */
const MAX_RECEIVE_BYTES = 512 * 1024 * 1024;

/** The running rig. */
export interface BenchRig {
  client: Client;
  oursTaskQueue: string;
  /** The naive design with the default data converter (plain JSON), as in the reported failure. */
  naiveTaskQueue: string;
  /** The naive design with this project's data converter (payloads of 64 KB and more gzipped). */
  naiveGzipTaskQueue: string;
  /** Makes the fake answer the `calls` requests of the turn tagged `tag` from `turn`. */
  play(tag: number, turn: ScriptedTurn, calls: number): void;
  stop(): Promise<void>;
}


function stationServer(): McpServerConfig {
  return {
    name: 'stations',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(REPO_ROOT, 'bench/fixtures/station-server.ts')],
    env: {},
    cwd: REPO_ROOT,
    tools: {},
  };
}

/** Starts the rig; whatever started is stopped again if a later step fails. */
export async function startBenchRig(): Promise<BenchRig> {
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => console.error(err));
    cleanups.length = 0;
  };
  try {
    const cli = findTemporalCli();
    if (!cli) throw new Error('No Temporal CLI found. Run `npm run setup` (builds it once), or set TEMPORAL_CLI_PATH.');
    const env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: cli.path }, ip: '127.0.0.1', log: { format: 'pretty', level: 'error' } },
    });
    cleanups.push(() => env.teardown());

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-bench-'));
    cleanups.push(() => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })));
    const [oursBundle, naiveBundle] = await Promise.all([
      bundleWorkflowCode({ workflowsPath: require.resolve('../src/workflows'), logger: quietLogger, ...workflowBundleOptions() }),
      bundleWorkflowCode({ workflowsPath: require.resolve('./naive/workflows'), logger: quietLogger }),
    ]);
    const oursBundlePath = path.join(dir, 'ours-bundle.js');
    fs.writeFileSync(oursBundlePath, oursBundle.code);

    const fake = await startFakeMessagesApi({ mode: 'scripted' });
    cleanups.push(() => fake.close());
    // Each request consumes one step and is answered by the turn its first message is tagged with,
    // so turns can run side by side, and steps left over by a run the server cut short do no harm.
    const turns = new Map<number, ScriptedTurn>();
    const delegate: ScriptStep = {
      kind: 'respond',
      respond: (req: RecordedRequest) => {
        // Nothing reads the recorded requests: dropping them keeps a 400-call naive run's memory flat.
        fake.requests.length = 0;
        const first = (req.body as { messages?: Array<{ content?: unknown }> }).messages?.[0]?.content;
        const tag = tagOf(JSON.stringify(first ?? ''));
        const turn = tag !== undefined ? turns.get(tag) : undefined;
        if (!turn) throw new Error(`a request of no playing benchmark turn (tag ${String(tag)})`);
        return turn.answer(req);
      },
    };
    const claude = createClaudeClient({ apiKey: BENCH_API_KEY, baseURL: fake.url });
    const mcp = new McpConnections([stationServer()], (line) => process.stderr.write(`${line}\n`));
    cleanups.push(() => mcp.closeAll());

    const connection = await Connection.connect({
      address: env.address,
      channelArgs: { 'grpc.max_receive_message_length': MAX_RECEIVE_BYTES },
    });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: 'default', dataConverter });

    const oursTaskQueue = `bench-ours-${randomUUID()}`;
    const naiveTaskQueue = `bench-naive-${randomUUID()}`;
    const naiveGzipTaskQueue = `bench-naive-gzip-${randomUUID()}`;
    const ours = await createConversationWorker({
      connection: env.nativeConnection,
      client,
      namespace: 'default',
      taskQueue: oursTaskQueue,
      claude,
      mcp,
      workflowBundlePath: oursBundlePath,
    });
    const naiveWorker = (taskQueue: string, gzip: boolean): Promise<Worker> =>
      Worker.create({
        connection: env.nativeConnection,
        namespace: 'default',
        taskQueue,
        workflowBundle: { code: naiveBundle.code },
        ...(gzip ? { dataConverter } : {}),
        // The real listTools and callTool (the real callClaude is registered too, and never scheduled).
        activities: { ...createActivities({ claude, temporal: client, mcp }), callClaudeWithMessages: createCallClaudeWithMessages(claude) },
      });
    const naive = await naiveWorker(naiveTaskQueue, false);
    const naiveGzip = await naiveWorker(naiveGzipTaskQueue, true);
    for (const worker of [ours, naive, naiveGzip]) {
      const running = worker.run();
      cleanups.push(async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
      });
    }

    return {
      client,
      oursTaskQueue,
      naiveTaskQueue,
      naiveGzipTaskQueue,
      play(tag, turn, calls) {
        turns.set(tag, turn);
        for (let i = 0; i < calls; i++) fake.enqueue(delegate);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
