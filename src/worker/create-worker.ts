import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection } from '@temporalio/worker';
import { createActivities } from '../activities';
import type { McpConnections } from '../mcp/mcp-connections';
import { dataConverter } from '../temporal/data-converter';

/** What a conversation worker is built from. */
export interface ConversationWorkerOptions {
  connection: NativeConnection;
  /** A client on the same server: activities query workflows for their transcripts. */
  client: Client;
  namespace: string;
  taskQueue: string;
  claude: Anthropic;
  mcp: McpConnections;
  /** A prebuilt workflow bundle (tests build one per run); otherwise the workflows are bundled now. */
  workflowBundlePath?: string;
  maxResultChars?: number;
}

/** Creates the worker that runs conversation workflows and their activities. */
export async function createConversationWorker(options: ConversationWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    dataConverter,
    ...(options.workflowBundlePath
      ? { workflowBundle: { codePath: options.workflowBundlePath } }
      : { workflowsPath: require.resolve('../workflows') }),
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
