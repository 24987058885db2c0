import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * Serves `server` over stdio until stdin closes or a signal arrives, then exits the process.
 * Shared by this repo's stdio MCP servers (the weather example, the test and bench fixtures).
 */
export async function serveStdio(server: McpServer, log: (line: string) => void = () => undefined): Promise<void> {
  let closing = false;
  const shutdown = (reason: string): void => {
    if (closing) return;
    closing = true;
    log(`shutting down (${reason})`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`close failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  // The host closing our stdin is the normal way a stdio server is told to stop.
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  // A host that vanished turns our next write into EPIPE; exit quietly instead of crashing.
  process.stdout.on('error', () => shutdown('stdout closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await server.connect(new StdioServerTransport());
}
