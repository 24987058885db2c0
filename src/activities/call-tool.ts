import { Context } from '@temporalio/activity';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isTransportFailure } from '../mcp/is-transport-failure';
import type { McpConnections } from '../mcp/mcp-connections';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../mcp/tool-catalog';
import { toToolResultContent } from '../mcp/tool-result';
import { classified } from './classify-error';
import type { ToolCallInput, ToolCallOutput } from './types';

/** What `callTool` needs from the worker. */
export interface CallToolDeps {
  connections: McpConnections;
  /** Cap on a result's text, in characters (about 4 per token). */
  maxResultChars?: number;
}

/**
 * The `callTool` activity: one MCP `tools/call` (seed §5). `isError` results are returned as data;
 * a dead connection is reopened and the call made once more; JSON-RPC errors and timeouts go to the
 * classifier. It heartbeats (with MCP progress as details) and cancels the MCP request when
 * Temporal cancels the activity (the SDK sends `notifications/cancelled`).
 */
export function createCallTool(deps: CallToolDeps): (input: ToolCallInput) => Promise<ToolCallOutput> {
  return (input) =>
    classified(async () => {
      const context = Context.current();
      const server = deps.connections.server(input.server);
      let progress: unknown;
      const call = async (): Promise<CallToolResult> => {
        const client = await deps.connections.client(input.server);
        return (await client.callTool({ name: input.tool, arguments: input.arguments }, undefined, {
          signal: context.cancellationSignal,
          timeout: server.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          onprogress: (update) => {
            progress = update;
            context.heartbeat({ progress });
          },
        })) as CallToolResult;
      };
      const heartbeat = setInterval(() => context.heartbeat({ progress }), 1000);
      try {
        let result: CallToolResult;
        try {
          result = await call();
        } catch (err) {
          if (!isTransportFailure(err)) throw err;
          context.log.warn(`MCP server "${input.server}" connection failed (${String(err)}); reconnecting`);
          await deps.connections.reset(input.server);
          result = await call();
        }
        const converted = toToolResultContent(result, deps.maxResultChars !== undefined ? { maxChars: deps.maxResultChars } : {});
        return { content: converted.content, isError: converted.isError, truncatedChars: converted.truncatedChars };
      } finally {
        clearInterval(heartbeat);
      }
    });
}
