import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error';
import { isSdkConnectionClosed } from '../errors/is-sdk-connection-closed';

/**
 * How a request died with its connection:
 * - `not_sent`: the server never got to run it (nothing listening, stdin already closed, HTTP session
 *   unknown to the server), so sending it again on a new connection cannot run it twice;
 * - `interrupted`: the connection broke while the request was in flight, so the server may or may
 *   not have run it.
 */
export type TransportFailureKind = 'not_sent' | 'interrupted';

/** Errno codes of a write or connect that failed before the request left this process. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);
/** Errno codes of a connection that broke while a request may have been in flight. */
const INTERRUPTED_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * Whether a failed MCP request died with its connection (dead stdio process, dropped socket, expired
 * HTTP session) rather than being answered, and if so whether the server can have run it. Errors the
 * server answered (JSON-RPC errors), timeouts and anything unknown give `undefined`: reconnecting
 * would not change their outcome.
 *
 * The shapes are those the MCP SDK (v2) really produces: `SdkError(ConnectionClosed)` for requests
 * pending when a transport closes, `SdkError(NotConnected)` for a request on a closed transport,
 * `SdkHttpError` with the HTTP status, and undici's `TypeError('fetch failed')` whose `cause`
 * carries the errno code.
 */
export function transportFailureKind(err: unknown): TransportFailureKind | undefined {
  // A JSON-RPC error the server answered: the connection works.
  if (err instanceof ProtocolError) return undefined;
  if (isSdkConnectionClosed(err)) return 'interrupted';
  if (err instanceof SdkHttpError) {
    // 404 is the specification's answer to a session the server no longer knows; servers built on the
    // SDK's examples (the reference "everything" server among them) answer 400 "No valid session ID".
    // Either way the request was refused before it ran.
    if (err.status === 404) return 'not_sent';
    if (err.status === 400 && /session/i.test(err.message)) return 'not_sent';
    return undefined;
  }
  if (err instanceof SdkError && err.code === SdkErrorCode.NotConnected) return 'not_sent';
  // The host's own errors are already decided (a failed connect is retried by the activity's policy).
  if (err instanceof HostError || !(err instanceof Error)) return undefined;
  const code = errnoCode(err) ?? errnoCode(err.cause);
  if (code !== undefined && NOT_SENT_CODES.has(code)) return 'not_sent';
  if (code !== undefined && INTERRUPTED_CODES.has(code)) return 'interrupted';
  if (/^not connected$/i.test(err.message)) return 'not_sent';
  // The legacy SSE transport's POST to a session the server forgot.
  if (/^Error POSTing to endpoint \(HTTP 404\)/.test(err.message)) return 'not_sent';
  if (/fetch failed|connection closed|socket hang up/i.test(err.message)) return 'interrupted';
  return undefined;
}

/** Whether `err` is a transport failure of either kind (see {@link transportFailureKind}). */
export function isTransportFailure(err: unknown): boolean {
  return transportFailureKind(err) !== undefined;
}

function errnoCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  const code = err.code;
  return typeof code === 'string' ? code : undefined;
}
