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
  });
}
