import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * Closes an MCP client over stdio and makes sure its server process is gone. `close()` ends stdin
 * and escalates to signals itself; the SIGKILL only guards against a process leaking past a test.
 */
export async function closeStdioClient(client: Client | undefined, transport: StdioClientTransport | undefined): Promise<void> {
  const pid = transport?.pid ?? null;
  await client?.close();
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone, as it should be.
  }
}
