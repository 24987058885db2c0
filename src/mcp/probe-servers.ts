/**
 * Start-up report of the MCP servers: each one connected and listed once, so a misconfigured
 * server shows at start, in one line, rather than in the first conversation that needs it.
 * A server that fails is only reported: the worker runs, and each turn tries it again.
 */
import type { McpConnections } from './mcp-connections';
import { listServerTools } from './tool-catalog';

/** What one server answered at start-up. */
export type ServerProbe = { name: string; tools: number } | { name: string; error: string };

/** Lists every server concurrently; calls `report` as each one answers. */
export async function probeServers(connections: McpConnections, report: (probe: ServerProbe) => void): Promise<ServerProbe[]> {
  return Promise.all(
    connections.list().map(async (server): Promise<ServerProbe> => {
      let probe: ServerProbe;
      try {
        probe = { name: server.name, tools: (await listServerTools(connections, server)).length };
      } catch (err) {
        // Printed at start-up: the error may quote the server's URL, headers or environment.
        const message = connections.redact(err instanceof Error ? err.message : String(err));
        probe = { name: server.name, error: message.split('\n')[0] ?? '' };
      }
      report(probe);
      return probe;
    }),
  );
}

/** The probe as one line of start-up output. */
export function describeProbe(probe: ServerProbe): string {
  return 'error' in probe ? `MCP server ${probe.name}: unavailable (${probe.error})` : `MCP server ${probe.name}: ${probe.tools} tool${probe.tools === 1 ? '' : 's'}`;
}
