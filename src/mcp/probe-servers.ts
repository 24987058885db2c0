/**
 * Start-up report of the MCP servers: each one connected and listed once, so a misconfigured
 * server shows at start, in one line, rather than in the first conversation that needs it.
 * A server that fails is only reported: the worker runs, and each turn tries it again.
 */
import type { McpConnections } from './mcp-connections';
import { listServerTools } from './tool-catalog';

/** What one server answered at start-up. */
export type ServerProbe = { name: string; tools: number } | { name: string; error: string };

/**
 * Connects to and lists every server concurrently, starting now: one promise per server, in config
 * order, each resolving to what it answered (never rejecting).
 */
export function startProbes(connections: McpConnections): Array<Promise<ServerProbe>> {
  return connections.list().map(async (server): Promise<ServerProbe> => {
    try {
      return { name: server.name, tools: (await listServerTools(connections, server)).length };
    } catch (err) {
      // Printed at start-up: the error may quote the server's URL, headers or environment.
      const message = connections.redact(err instanceof Error ? err.message : String(err));
      return { name: server.name, error: message.split('\n')[0] ?? '' };
    }
  });
}

/** Lists every server concurrently; calls `report` as each one answers. */
export async function probeServers(connections: McpConnections, report: (probe: ServerProbe) => void): Promise<ServerProbe[]> {
  return reportProbes(startProbes(connections), report);
}

/** Calls `report` as each probe answers; resolves with them all. */
export async function reportProbes(probes: ReadonlyArray<Promise<ServerProbe>>, report: (probe: ServerProbe) => void): Promise<ServerProbe[]> {
  return Promise.all(
    probes.map(async (probing) => {
      const probe = await probing;
      report(probe);
      return probe;
    }),
  );
}

/** The probe as one line of start-up output. */
export function describeProbe(probe: ServerProbe): string {
  return 'error' in probe ? `MCP server ${probe.name}: unavailable (${probe.error})` : `MCP server ${probe.name}: ${probe.tools} tool${probe.tools === 1 ? '' : 's'}`;
}
