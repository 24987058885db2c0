import type { McpServer as LegacyMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport as LegacyStdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio as serveStdioConnection } from '@modelcontextprotocol/server/stdio';

/**
 * What {@link serveStdio} serves. A factory of SDK v2 servers speaks both protocol eras: the SDK's
 * stdio entry reads the client's opening message and pins one instance to its era (`initialize`
 * → 2025 handshake; a request carrying the 2026-07-28 `_meta` envelope, `server/discover` first →
 * stateless 2026). A single v1 (`@modelcontextprotocol/sdk`) server speaks 2025 only; the test and
 * bench fixtures still built on v1 pass one.
 */
export type StdioServable = McpServerFactory | LegacyMcpServer;

interface Closable {
  close(): Promise<void>;
}

/**
 * Serves `server` over stdio until stdin closes or a signal arrives, then exits the process.
 * Shared by this repo's stdio MCP servers (the weather example, the test and bench fixtures).
 */
export async function serveStdio(server: StdioServable, log: (line: string) => void = () => undefined): Promise<void> {
  let connection: Closable | undefined;
  let closing = false;
  const shutdown = (reason: string): void => {
    if (closing) return;
    closing = true;
    log(`shutting down (${reason})`);
    (connection?.close() ?? Promise.resolve()).then(
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
  if (typeof server === 'function') {
    // The SDK's entry owns the transport: it starts reading stdin now and builds instances as the
    // client's first message asks (a discarded `server/discover` probe instance included).
    connection = serveStdioConnection(server);
  } else {
    await server.connect(new LegacyStdioServerTransport());
    connection = server;
  }
}
