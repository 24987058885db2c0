/**
 * The host's own tools that let Claude use MCP resources (issue 28), offered when some server of the
 * catalogue has resources: one lists them, one reads a resource by URI. They take the names and
 * shapes of Claude Code's (`ListMcpResourcesTool` with an optional `server`, `ReadMcpResourceTool`
 * with `server` and `uri`), so a model that knows those knows these. Their calls are activities like
 * any tool's (`useResources`), retried by the same rules: both are read-only. Pure: the catalogue,
 * the workflow and the activity share these definitions.
 */
import type { Tool, ToolRoute } from '../../conversation/types';

/** Claude's name of the listing tool. */
export const LIST_RESOURCES_TOOL = 'ListMcpResourcesTool';
/** Claude's name of the reading tool. */
export const READ_RESOURCE_TOOL = 'ReadMcpResourceTool';
/** What stands for the server in a host tool's route (the read tool's server is in its input). */
export const HOST_TOOL_SERVER = 'mcp-host';

/** Which host tool a route is. */
export type HostResourceTool = 'list_resources' | 'read_resource';

/** The listing tool as Claude sees it; `servers`: those that have resources, named in its description. */
function listTool(servers: readonly string[]): Tool {
  return {
    name: LIST_RESOURCES_TOOL,
    description:
      'Lists the resources (files, records, documents addressed by URI) that the connected MCP servers offer, ' +
      'with each one\'s server, URI, name, type and description, and the resource templates (URI patterns) they accept. ' +
      `Servers with resources: ${servers.join(', ')}. Give "server" to list one of them.`,
    input_schema: {
      type: 'object',
      properties: { server: { type: 'string', description: 'List only this server\'s resources (optional)' } },
    },
  };
}

/** The reading tool as Claude sees it. */
function readTool(): Tool {
  return {
    name: READ_RESOURCE_TOOL,
    description:
      'Reads one resource of an MCP server by its URI: one listed by ListMcpResourcesTool, a template filled in, ' +
      'or a "[resource link]" in a tool result (read it with the server that returned the link).',
    input_schema: {
      type: 'object',
      properties: {
        server: { type: 'string', description: 'The MCP server that has the resource' },
        uri: { type: 'string', description: 'The resource\'s URI' },
      },
      required: ['server', 'uri'],
    },
  };
}

/**
 * The host tools and their routes for a catalogue whose servers with resources are `servers` (none:
 * no tools), leaving out any whose name a server's tool already took.
 */
export function hostResourceTools(servers: readonly string[], taken: ReadonlySet<string>, timeoutMs: number): Array<{ tool: Tool; route: ToolRoute }> {
  if (servers.length === 0) return [];
  const route = (host: HostResourceTool, name: string): ToolRoute => ({ server: HOST_TOOL_SERVER, name, idempotent: true, timeoutMs, host });
  return [
    { tool: listTool(servers), route: route('list_resources', LIST_RESOURCES_TOOL) },
    { tool: readTool(), route: route('read_resource', READ_RESOURCE_TOOL) },
  ].filter(({ tool }) => !taken.has(tool.name));
}
