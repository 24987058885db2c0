import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection } from '@temporalio/worker';
import { createActivities } from '../activities';
import type { McpConnections } from '../mcp/mcp-connections';
import { dataConverter } from '../temporal/data-converter';
import { prebuiltWorkflowBundlePath, workflowsPath } from './workflow-bundle';

/** What a conversation worker is built from. */
export interface ConversationWorkerOptions {
  connection: NativeConnection;
  /** A client on the same server: activities query workflows for their transcripts. */
  client: Client;
  namespace: string;
  taskQueue: string;
  claude: Anthropic;
  mcp: McpConnections;
  /**
   * A prebuilt workflow bundle (tests build one per run). Default: the one `npm run build` wrote
   * beside the compiled code; running from source, the workflows are bundled now.
   */
  workflowBundlePath?: string;
  maxResultChars?: number;
}

/** Creates the worker that runs conversation workflows and their activities. */
export async function createConversationWorker(options: ConversationWorkerOptions): Promise<Worker> {
  const bundlePath = options.workflowBundlePath ?? prebuiltWorkflowBundlePath();
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    dataConverter,
    ...(bundlePath !== undefined ? { workflowBundle: { codePath: bundlePath } } : { workflowsPath: workflowsPath() }),
    activities: createActivities({
      claude: options.claude,
      temporal: options.client,
      mcp: options.mcp,
      ...(options.maxResultChars !== undefined ? { maxResultChars: options.maxResultChars } : {}),
    }),
    // Lets an in-flight tool call finish (or be retried elsewhere) when the worker is stopped.
    shutdownGraceTime: '10 seconds',
    // Every heartbeat reaches the server within a second, whatever the activity's heartbeat timeout:
    // the SDK's default throttle (80% of the timeout: 4 s of a 5 s timeout) would leave a live worker
    // 1 s of slack before its call is taken for lost and run twice.
    maxHeartbeatThrottleInterval: '1 second',
    // After a worker dies, the next workflow task of each of its conversations is first offered on
    // its sticky queue and waits this long there before any other worker may take it (default 10 s:
    // measured as a 10 s stall after a tool call that a new worker retried and finished within
    // seconds). A live worker takes its sticky tasks within milliseconds, so 2 s only hands a task
    // of a worker stalled that long to another one, which replays the history (tens of ms here).
    stickyQueueScheduleToStartTimeout: '2 seconds',
  });
}
