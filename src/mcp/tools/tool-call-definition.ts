/**
 * What a `tools/call` takes from the tool's listed definition (`tool-definitions.ts`): the
 * `Mcp-Param-*` headers to send (SEP-2243), and the listing that fills the definitions when this
 * worker has none yet for the server (the turn's listing may have run on another worker).
 */
import type { Client } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config';
import type { McpConnections } from '../mcp-connections';
import { listServer } from './server-listing';
import type { ToolDefinition } from './tool-definitions';
import { mcpParamHeaders } from './x-mcp-header';

/** JSON-RPC -32020 (HeaderMismatch, 2026-07-28): the server wanted other `Mcp-Param-*` headers. */
export const HEADER_MISMATCH = -32020;

/**
 * Lists `server` (recording its definitions), for a call that found none or was refused for its
 * headers. Never throws: a call goes on without a definition (no headers, no output check), and the
 * listing's failure is only logged, since the call itself says what is wrong with the server.
 */
export async function relistForCall(connections: McpConnections, server: McpServerConfig, signal: AbortSignal): Promise<void> {
  try {
    await listServer(connections, server, { signal });
  } catch (err) {
    connections.log(`[mcp:${server.name}] warning: could not list the tools before a call (${err instanceof Error ? err.message : String(err)}); calling without their definitions`);
  }
}

/**
 * The definition of `tool` for a call on an open connection to `server`: this worker's latest
 * listing, which it lists first when it has never listed the server (once per worker and server).
 */
export async function definitionForCall(connections: McpConnections, server: McpServerConfig, tool: string, signal: AbortSignal): Promise<ToolDefinition | undefined> {
  if (!connections.toolDefinitions.hasListed(server.name)) await relistForCall(connections, server, signal);
  return connections.toolDefinitions.get(server.name, tool);
}

/**
 * The `Mcp-Param-*` headers of a call with `args` over `client`: only a 2026-07-28 Streamable HTTP
 * connection carries them (stdio has no headers, and 2025 revisions know no such thing).
 */
export function paramHeadersForCall(client: Client, server: McpServerConfig, definition: ToolDefinition | undefined, args: Record<string, unknown>): Record<string, string> {
  if (definition === undefined || server.transport !== 'http' || client.getProtocolEra() !== 'modern') return {};
  return mcpParamHeaders(definition.headerParams, args);
}
