import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection } from '@temporalio/worker';
import * as fs from 'node:fs';
import type { ConversationActivities } from '../activities/types';
import type { McpConnections } from '../mcp/mcp-connections';
import { dataConverter } from '../temporal/data-converter';
import { workerTracingOptions } from '../telemetry/worker-tracing';
import { workerDeploymentOptions, type DeploymentVersion } from './worker-deployment';
import { prebuiltWorkflowBundlePath, workflowInterceptorModules, workflowPreloadModules, workflowsPath } from './workflow-bundle';

/** Where a conversation worker polls, and which workflow code it runs. */
export interface ConversationWorkerTarget {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /**
   * A prebuilt workflow bundle (tests build one per run). Default: the one `npm run build` wrote
   * beside the compiled code; running from source, the workflows are bundled now.
   */
  workflowBundlePath?: string;
  /** The worker deployment version to register as (Worker Versioning, src/worker/worker-deployment.ts); default unversioned. */
  deployment?: DeploymentVersion;
}

/** What a conversation worker is built from. */
export interface ConversationWorkerOptions extends ConversationWorkerTarget {
  /** A client on the same server: activities query workflows for their transcripts. */
  client: Client;
  claude: Anthropic;
  mcp: McpConnections;
  maxResultChars?: number;
}

/** The activities' names: the worker registers them before their code is loaded. */
const ACTIVITY_NAMES = ['callClaude', 'summarizeContext', 'countTokens', 'listTools', 'callTool', 'sampleMessage', 'useResources'] as const satisfies ReadonlyArray<keyof ConversationActivities>;
/** Compiles only while ACTIVITY_NAMES lists every activity. */
const EVERY_ACTIVITY_NAMED: [Exclude<keyof ConversationActivities, (typeof ACTIVITY_NAMES)[number]>] extends [never] ? true : never = true;
void EVERY_ACTIVITY_NAMED;

/** Activities that exist by name at once and run once `ready` has them. */
function deferredActivities(ready: Promise<ConversationActivities>): ConversationActivities {
  // A worker whose activities never came fails them, not the process: it is shutting down anyway.
  ready.catch(() => undefined);
  const run = async (name: (typeof ACTIVITY_NAMES)[number], args: unknown[]): Promise<unknown> => {
    const activities: Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined> = (await ready) as never;
    const activity = activities[name];
    if (!activity) throw new Error(`no activity ${name}`);
    return activity(...args);
  };
  return Object.fromEntries(ACTIVITY_NAMES.map((name) => [name, (...args: unknown[]) => run(name, args)])) as unknown as ConversationActivities;
}

/**
 * Creates the worker with its activities still being made: `make` runs while the SDK starts the
 * workflow thread and loads the workflow bundle into it (about a second, off this thread), so the
 * modules the activities need (the Claude and MCP SDKs) load meanwhile instead of before. `make`
 * returns the activities and whatever else it made. Nothing is left running when this rejects.
 */
export async function createWorkerWhileMaking<T>(
  target: ConversationWorkerTarget,
  make: () => { activities: ConversationActivities; made: T },
): Promise<{ worker: Worker; made: T }> {
  let provide!: (activities: ConversationActivities) => void;
  let refuse!: (err: unknown) => void;
  const ready = new Promise<ConversationActivities>((resolve, reject) => {
    provide = resolve;
    refuse = reject;
  });
  const creating = Worker.create(workerOptions(target, deferredActivities(ready), true));
  // Worker.create has started the workflow thread once its microtasks have run (the bundle is passed as code).
  await new Promise((resolve) => setImmediate(resolve));
  let made: T;
  try {
    const result = make();
    const unnamed = Object.keys(result.activities).filter((name) => !(ACTIVITY_NAMES as readonly string[]).includes(name));
    if (unnamed.length > 0) throw new Error(`activities ${unnamed.join(', ')} are not in ACTIVITY_NAMES (src/worker/create-worker.ts)`);
    provide(result.activities);
    made = result.made;
  } catch (err) {
    refuse(err);
    // Let the creation settle and release what it made before reporting the failure.
    const worker = await creating.catch(() => undefined);
    if (worker) {
      const running = worker.run();
      worker.shutdown();
      await running.catch(() => undefined);
    }
    throw err;
  }
  return { worker: await creating, made };
}

/** Creates the worker that runs conversation workflows and their activities. */
export async function createConversationWorker(options: ConversationWorkerOptions): Promise<Worker> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand: see createWorkerWhileMaking
  const { createActivities } = require('../activities') as typeof import('../activities');
  const activities = createActivities({
    claude: options.claude,
    temporal: options.client,
    mcp: options.mcp,
    ...(options.maxResultChars !== undefined ? { maxResultChars: options.maxResultChars } : {}),
  });
  return Worker.create(workerOptions(options, activities, false));
}

function workerOptions(target: ConversationWorkerTarget, activities: ConversationActivities, bundleAsCode: boolean): Parameters<typeof Worker.create>[0] {
  const bundlePath = target.workflowBundlePath ?? prebuiltWorkflowBundlePath();
  const bundle =
    bundlePath === undefined
      ? { workflowsPath: workflowsPath(), bundlerOptions: { preloadModules: workflowPreloadModules() } }
      : // As code, the SDK starts the workflow thread without waiting for a file read first.
        { workflowBundle: bundleAsCode ? { code: fs.readFileSync(bundlePath, 'utf8') } : { codePath: bundlePath } };
  const tracing = workerTracingOptions();
  return {
    connection: target.connection,
    namespace: target.namespace,
    taskQueue: target.taskQueue,
    ...(target.deployment !== undefined ? { workerDeploymentOptions: workerDeploymentOptions(target.deployment) } : {}),
    dataConverter,
    ...bundle,
    activities,
    // Spans (src/telemetry/worker-tracing.ts); a bundle made here gets the workflow interceptors a prebuilt one carries.
    interceptors: { activity: tracing.activityInterceptors, ...(bundlePath === undefined ? { workflowModules: workflowInterceptorModules() } : {}) },
    sinks: tracing.sinks,
    // Lets an in-flight tool call finish (or be retried elsewhere) when the worker is stopped.
    shutdownGraceTime: '10 seconds',
    // Every heartbeat reaches the server within a second, whatever the activity's heartbeat timeout:
    // the SDK's default throttle (80% of the timeout: 4 s of a 5 s timeout) would leave a live worker
    // 1 s of slack before its call is taken for lost and run twice. 150 ms, so a streaming Claude
    // call's text reaches the server within 150 ms of Claude writing it (src/activities/publish-progress.ts):
    // with followers reading every 125 ms (DEFAULT_FOLLOW_POLL_MS), a word shows p90 282–294 ms late
    // against ~500 at 250/250 (`npm run bench -- --only=live-text`, docs/BENCHMARKS.md); 100 ms gained
    // nothing more at 43 heartbeats per 4.7 s answer against 29 at 150 ms (17 at 250). Other
    // activities heartbeat once a second on their own, so they send no more than before.
    maxHeartbeatThrottleInterval: '150 milliseconds',
    // After a worker dies, the next workflow task of each of its conversations is first offered on
    // its sticky queue and waits this long there before any other worker may take it (default 10 s:
    // measured as a 10 s stall after a tool call that a new worker retried and finished within
    // seconds; a retried activity now frees its workflow from that queue, release-sticky-queue.ts,
    // so this wait is left to tasks no activity precedes, such as a new turn's). A balance, measured
    // both ways: with many conversations the server itself is slow to hand tasks out, and a task
    // that waits longer than this goes to the normal queue with its whole history, to be replayed
    // (npm run bench's throughput section, 200 conversations on one worker, host p95 / floor p95:
    // 2.8x at 1 s, 1.5-1.6x at 2 s and 3 s, 1.5x at 10 s); after a kill every such task waits it
    // out (npm run chaos -- --profile long: recovery median 5.5-5.8 s at 3 s, 4.9-5.0 s at 2 s).
    stickyQueueScheduleToStartTimeout: '2 seconds',
  };
}
