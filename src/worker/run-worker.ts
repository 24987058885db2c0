/**
 * Runs the conversation worker until it is asked to stop: connects to Temporal, reads the MCP
 * config, builds the Claude client from the environment, and on stop closes every MCP connection
 * so no child process is left behind.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { createClaudeClient } from '../claude/create-claude-client';
import type { Settings } from '../config/settings';
import { loadMcpConfig } from '../mcp/config';
import { McpConnections } from '../mcp/mcp-connections';
import { clientConnectionOptions } from '../temporal/client-connection-options';
import { dataConverter } from '../temporal/data-converter';
import { createConversationWorker } from './create-worker';

/** Where the Claude calls go: a real API key, or the offline stand-in's URL. */
export interface ClaudeEndpoint {
  apiKey: string;
  baseURL?: string;
}

/** Runs the worker; resolves after `stopSignal` aborts and everything is closed. */
export async function runWorker(settings: Settings, address: string, claude: ClaudeEndpoint, stopSignal: AbortSignal): Promise<void> {
  const servers = await loadMcpConfig(settings.mcpConfigPath);
  const connection = await Connection.connect(clientConnectionOptions(address));
  const nativeConnection = await NativeConnection.connect({ address }).catch(async (err: unknown) => {
    await connection.close();
    throw err;
  });
  const mcp = new McpConnections(servers);
  try {
    const worker = await createConversationWorker({
      connection: nativeConnection,
      client: new Client({ connection, namespace: settings.namespace, dataConverter }),
      namespace: settings.namespace,
      taskQueue: settings.taskQueue,
      claude: createClaudeClient({
        apiKey: claude.apiKey,
        ...(claude.baseURL !== undefined ? { baseURL: claude.baseURL } : {}),
        ...(settings.anthropicVersion !== undefined ? { version: settings.anthropicVersion } : {}),
      }),
      mcp,
    });
    const onStop = (): void => worker.shutdown();
    if (stopSignal.aborted) onStop();
    else stopSignal.addEventListener('abort', onStop, { once: true });
    process.stderr.write(
      `worker running: task queue "${settings.taskQueue}", namespace "${settings.namespace}", ` +
        `MCP servers: ${servers.map((s) => s.name).join(', ') || '(none)'}\n`,
    );
    await worker.run();
  } finally {
    await mcp.closeAll();
    await nativeConnection.close();
    await connection.close();
  }
}
