import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

const NETWORK_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ERR_STREAM_DESTROYED', 'UND_ERR_SOCKET']);

/**
 * Whether a failed MCP request died with its connection (dead stdio process, dropped socket,
 * expired HTTP session) rather than being answered: then reconnecting and calling again can help.
 */
export function isTransportFailure(err: unknown): boolean {
  if (err instanceof McpError) return (err.code as ErrorCode) === ErrorCode.ConnectionClosed;
  // Streamable HTTP answers 404 to a request whose session the server has forgotten.
  if (err instanceof StreamableHTTPError) return err.code === 404 || err.code === undefined;
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== undefined && NETWORK_CODES.has(code)) return true;
  return /not connected|connection closed|fetch failed/i.test(err.message);
}
