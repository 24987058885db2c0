import { ErrorCode, type McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * The messages of the `McpError(-32000)`s the MCP SDK (1.x, `Protocol`) raises itself: for requests
 * pending when the transport closes, and for a request sent from within a cancelled one. A server that answers with
 * JSON-RPC -32000 (the first code of JSON-RPC's server-error range, "server error") produces an
 * `McpError` with the same code, so only the message tells the two apart.
 */
const SDK_MESSAGES: ReadonlySet<string> = new Set(['MCP error -32000: Connection closed', 'MCP error -32000: Request was cancelled']);

/**
 * Whether a -32000 `McpError` is the SDK's own "the connection closed" rather than a server's
 * answer: the first means the request may have died with its connection, the second that the
 * server is up and said no (often for a moment: busy, overloaded).
 */
export function isSdkConnectionClosed(err: McpError): boolean {
  return (err.code as ErrorCode) === ErrorCode.ConnectionClosed && SDK_MESSAGES.has(err.message);
}
