/**
 * `transportFailureKind` on the error shapes the MCP SDK really produces (seen in the reference-server
 * and resilience suites): what is reconnected and sent again at once, what is left to the activity's
 * bounded retries, and what is not a transport failure at all.
 */
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { HostError } from '../../src/errors/host-error';
import { isTransportFailure, transportFailureKind } from '../../src/mcp/is-transport-failure';

/** The transport's error for an HTTP status answering a POST, as the SDK v2 raises it. */
function postRefused(status: number, text: string): SdkHttpError {
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status, text });
}

function errno(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('transportFailureKind', () => {
  test.each([
    ['a request pending when the stdio process died', new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), 'interrupted'],
    ['a request on a transport already closed', new SdkError(SdkErrorCode.NotConnected, 'Not connected'), 'not_sent'],
    ['an expired Streamable HTTP session (spec: 404)', postRefused(404, '{"error":{"code":-32001,"message":"Session not found"}}'), 'not_sent'],
    [
      'a session a restarted SDK-example server does not know (400)',
      postRefused(400, '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}'),
      'not_sent',
    ],
    ['nothing listening (undici: fetch failed, cause ECONNREFUSED)', new TypeError('fetch failed', { cause: errno('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') }), 'not_sent'],
    ['a socket reset mid-request', new TypeError('fetch failed', { cause: errno('read ECONNRESET', 'ECONNRESET') }), 'interrupted'],
    ['a write into a closed pipe', errno('write EPIPE', 'EPIPE'), 'not_sent'],
    ['a legacy SSE POST to a forgotten session', new Error('Error POSTing to endpoint (HTTP 404): Session not found'), 'not_sent'],
  ])('%s → %s', (_what, err, kind) => {
    expect(transportFailureKind(err)).toBe(kind);
    expect(isTransportFailure(err)).toBe(true);
  });

  test.each([
    ['a timeout (the server may be busy, not gone)', new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out')],
    ['a -32000 error the server answered (an answer: the connection works)', new ProtocolError(-32000, 'server busy, try again')],
    ['an internal error the server answered', new ProtocolError(ProtocolErrorCode.InternalError, 'the database went away')],
    ['invalid params', new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool: x')],
    ['method not found', new ProtocolError(ProtocolErrorCode.MethodNotFound, 'no')],
    ['another HTTP 400', postRefused(400, 'bad JSON')],
    ['an unexpected content type', new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, 'Unexpected content type: text/html')],
    ['a server answering -32000 "Connection closed" (an answer, not the SDK)', new ProtocolError(-32000, 'Connection closed')],
    ['a host error whose message mentions a closed connection', new HostError('cannot connect to MCP server "x": MCP error -32000: Connection closed', 'mcp.connect_failed', true)],
    ['any other error', new Error('boom')],
    ['a non-error', 'Connection closed'],
  ])('%s → not a transport failure', (_what, err) => {
    expect(transportFailureKind(err)).toBeUndefined();
    expect(isTransportFailure(err)).toBe(false);
  });
});
