/**
 * `mcp-host tools`: the merged catalogue a worker with this `mcp.json` offers Claude, built the way
 * the worker builds it (same loader, same connections, same naming and filtering), then closed.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { loadMcpConfig } from '../mcp/config';
import { McpConnections } from '../mcp/mcp-connections';
import { buildToolCatalogReport, type UnavailableServer } from '../mcp/tool-catalog';
import { toolRouteEntries } from '../conversation/tool-routes';
import { toolsQuery } from '../workflows/definitions';

/** One tool as Claude sees it and where it lives. */
export interface CatalogueRow {
  /** The name Claude calls it by (prefixed when two servers list the same name). */
  claudeName: string;
  server: string;
  /** The tool's own name on its MCP server. */
  mcpName: string;
  description: string;
  /** Tool approval from mcp.json, when not `auto`: `ask` waits for the user, `deny` never runs. */
  approval?: 'ask' | 'deny';
  /** A fast tool from mcp.json (`fast`, `fastTools`): its calls run as local activities. */
  fast?: true;
}

/**
 * Lists every server of the `mcp.json` at `configPath` and returns the merged catalogue; each server
 * left out (down, a failed handshake, an OAuth login missing or refused) is passed to `unavailable`.
 * @throws Error when there are servers and none of them could be listed.
 */
export async function toolCatalogue(
  configPath: string,
  log: (line: string) => void = () => undefined,
  unavailable: (server: UnavailableServer) => void = () => undefined,
): Promise<CatalogueRow[]> {
  const servers = await loadMcpConfig(configPath);
  const connections = new McpConnections(servers, log);
  try {
    const report = await buildToolCatalogReport(connections);
    report.unavailable.forEach(unavailable);
    const catalog = report.catalog;
    const descriptions = new Map(catalog.tools.map((tool) => [tool.name, tool.description ?? '']));
    return toolRouteEntries(catalog).map(([claudeName, route]) => ({
      claudeName,
      server: route.server,
      mcpName: route.name,
      description: descriptions.get(claudeName) ?? '',
      ...(route.approval !== undefined ? { approval: route.approval } : {}),
      ...(route.fast === true ? { fast: true as const } : {}),
    }));
  } finally {
    await connections.closeAll();
  }
}

/**
 * `mcp-host tools ID`: the catalogue of one conversation, as its workflow holds it (the `tools`
 * query): the names that conversation gave out, which may differ from a fresh worker's. Empty
 * before its first turn listed the tools.
 * @throws Error `no conversation with id "…"` for an unknown id.
 */
export async function conversationToolCatalogue(client: Client, id: string): Promise<CatalogueRow[]> {
  const answer = await client.workflow
    .getHandle(id)
    .query(toolsQuery)
    .catch((err: unknown) => {
      throw err instanceof WorkflowNotFoundError ? new Error(`no conversation with id "${id}"`) : err;
    });
  const routeOf = new Map(answer.routes ?? []);
  return answer.tools.map((tool) => {
    const route = routeOf.get(tool.name);
    // Answered by a worker older than the routes: the server is not known.
    return {
      claudeName: tool.name,
      server: route?.server ?? '?',
      mcpName: route?.name ?? tool.name,
      description: tool.description ?? '',
      ...(route?.approval !== undefined ? { approval: route.approval } : {}),
      ...(route?.fast === true ? { fast: true as const } : {}),
    };
  });
}

/** What follows a row's MCP name: `(approval: ask)`, `(fast)`, `(approval: ask, fast)`, or nothing. */
function rowNotes(row: CatalogueRow): string {
  const notes = [...(row.approval !== undefined ? [`approval: ${row.approval}`] : []), ...(row.fast === true ? ['fast'] : [])];
  return notes.length > 0 ? `  (${notes.join(', ')})` : '';
}

/** The catalogue as a table: Claude name, server, MCP name (with `(approval: ask)` or `(approval: deny)` after it when not auto, `(fast)` for a fast tool). */
export function renderCatalogue(rows: readonly CatalogueRow[]): string {
  if (rows.length === 0) return '(no tools)';
  const widths = [
    Math.max('CLAUDE NAME'.length, ...rows.map((r) => r.claudeName.length)),
    Math.max('SERVER'.length, ...rows.map((r) => r.server.length)),
  ] as const;
  const line = (a: string, b: string, c: string): string => `${a.padEnd(widths[0])}  ${b.padEnd(widths[1])}  ${c}`;
  return [line('CLAUDE NAME', 'SERVER', 'MCP NAME'), ...rows.map((r) => line(r.claudeName, r.server, `${r.mcpName}${rowNotes(r)}`))].join('\n');
}
