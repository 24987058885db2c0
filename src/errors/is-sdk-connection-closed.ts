import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/**
 * Whether `err` is the MCP SDK's own "the connection closed" for a request pending when its
 * transport closed: the request may have died with its connection. The SDK v2 raises it as an
 * `SdkError` (a local error that never crossed the wire), so a server that answers JSON-RPC -32000
 * (a `ProtocolError`, "server error") can no longer be mistaken for it, as it could with v1.
 */
export function isSdkConnectionClosed(err: unknown): err is SdkError {
  return err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed;
}
