/**
 * The merged tool catalogue of every configured server (S4, S5): all `tools/list` pages of each
 * server (following `nextCursor`), filtered by the server's allow/deny list, named for Claude, with
 * the route back to the exact MCP tool. Kept per worker until a tool list may have changed.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { digestOf } from '../conversation/digest';
import type { Tool, ToolCatalog, ToolRoute } from '../conversation/types';
import { toClaudeTool } from './claude-tool';
import type { McpServerConfig, ToolFilter } from './config';
import type { McpConnections } from './mcp-connections';
import { assignClaudeToolNames } from './tool-names';

/** A server's call timeout when its config names none. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/** A bound on pages per server, so a server whose cursor never ends cannot hang the host. */
const MAX_PAGES = 1000;

function allowed(filter: ToolFilter, name: string): boolean {
  if (filter.allow && !filter.allow.includes(name)) return false;
  return !(filter.deny && filter.deny.includes(name));
}

async function listServerTools(connections: McpConnections, server: McpServerConfig): Promise<McpTool[]> {
  const client = await connections.client(server.name);
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor !== undefined ? { cursor } : {});
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return tools.filter((tool) => allowed(server.tools, tool.name));
  }
  throw new Error(`MCP server "${server.name}" kept returning nextCursor after ${MAX_PAGES} pages`);
}

/** Lists every server and builds the catalogue. */
export async function buildToolCatalog(connections: McpConnections): Promise<ToolCatalog> {
  const servers = connections.list();
  const perServer = await Promise.all(servers.map((server) => listServerTools(connections, server)));
  const entries = servers.flatMap((server, i) => (perServer[i] ?? []).map((tool) => ({ server, tool })));
  const names = assignClaudeToolNames(entries.map(({ server, tool }) => ({ server: server.name, name: tool.name })));
  const tools: Tool[] = [];
  const routes: Record<string, ToolRoute> = {};
  entries.forEach(({ server, tool }, i) => {
    const claudeName = names[i] ?? tool.name;
    tools.push(toClaudeTool(tool, claudeName, server.name));
    routes[claudeName] = {
      server: server.name,
      name: tool.name,
      idempotent: tool.annotations?.idempotentHint === true,
      timeoutMs: server.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    };
  });
  return { digest: digestOf([tools, routes]), tools, routes };
}

/** A worker's catalogue, rebuilt only when a server's tool list may have changed. */
export class ToolCatalogCache {
  private cached: { generation: number; catalog: ToolCatalog } | undefined;

  constructor(private readonly connections: McpConnections) {}

  async current(): Promise<ToolCatalog> {
    const generation = this.connections.toolsGeneration();
    if (this.cached?.generation === generation) return this.cached.catalog;
    const catalog = await buildToolCatalog(this.connections);
    // Listing may itself open connections (and so bump the generation): remember the state after it.
    this.cached = { generation: this.connections.toolsGeneration(), catalog };
    return catalog;
  }
}
