/**
 * An in-process conversation worker on the run's real Temporal dev server, with a fake Messages API
 * behind the real Anthropic SDK and real MCP servers. Everything is shut down in `stop`, whatever failed.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { createClaudeClient } from '../../src/claude/create-claude-client';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import type { McpServerConfig } from '../../src/mcp/config';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { dataConverter } from '../../src/temporal/data-converter';
import { createConversationWorker } from '../../src/worker/create-worker';

/** The test API key: tests assert it reaches the fake in `x-api-key` and never enters history. */
export const TEST_API_KEY = 'sk-ant-test-key-0123456789';

/** A running worker and what it talks to. */
export interface TestWorker {
  client: Client;
  fake: FakeMessagesApi;
  taskQueue: string;
  mcp: McpConnections;
  logs: string[];
  stop(): Promise<void>;
}

/** The address of the run's dev server (set by global setup). */
export function temporalAddress(): string {
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (!address) throw new Error('TEMPORAL_TEST_ADDRESS is unset: run the tests through jest (global setup starts Temporal)');
  return address;
}

/** Starts a worker on a fresh task queue. */
export async function startTestWorker(options: {
  servers: McpServerConfig[];
  script?: ScriptStep[];
  mode?: 'scripted' | 'rules';
  /** Another workflow bundle than the run's (global setup). */
  workflowBundlePath?: string;
}): Promise<TestWorker> {
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => console.error(err));
    cleanups.length = 0;
  };
  try {
    const logs: string[] = [];
    const fake = await startFakeMessagesApi({ mode: options.mode ?? 'scripted', script: options.script ?? [] });
    cleanups.push(() => fake.close());
    const connection = await Connection.connect({ address: temporalAddress() });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, dataConverter });
    const nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
    cleanups.push(() => nativeConnection.close());
    const mcp = new McpConnections(options.servers, (line) => logs.push(line));
    cleanups.push(() => mcp.closeAll());
    const taskQueue = `test-${randomUUID()}`;
    const bundlePath = options.workflowBundlePath ?? process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE;
    const worker: Worker = await createConversationWorker({
      connection: nativeConnection,
      client,
      namespace: 'default',
      taskQueue,
      claude: createClaudeClient({ apiKey: TEST_API_KEY, baseURL: fake.url }),
      mcp,
      ...(bundlePath ? { workflowBundlePath: bundlePath } : {}),
    });
    const running = worker.run();
    cleanups.push(async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    });
    return { client, fake, taskQueue, mcp, logs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
