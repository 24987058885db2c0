/**
 * The classifier on real error instances: Anthropic SDK errors built the way the SDK builds them from
 * an HTTP answer (`APIError.generate`), MCP SDK errors, the host's own errors and anything else.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { OAuthError, OAuthErrorCode, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ApplicationFailure } from '@temporalio/common';
import { classified, classifyError } from '../../src/errors/classify-error';
import type { FailureType } from '../../src/errors/failure-types';
import { HostError } from '../../src/errors/host-error';
import { retryDelayMs } from '../../src/errors/retry-delay';

/** The error body the Messages API answers with. */
function errorBody(type: string, message: string): object {
  return { type: 'error', error: { type, message }, request_id: 'req_011' };
}

/** An `APIError` as the SDK makes it from a response: the subclass for the status, headers and body parsed. */
function apiError(status: number, type: string | undefined, headers: Record<string, string> = {}): APIError {
  const body = type === undefined ? undefined : errorBody(type, `a ${type}`);
  return APIError.generate(status, body, undefined, new Headers({ 'request-id': 'req_011', ...headers }));
}

/** What a test reads off a failure. */
function outcome(failure: ApplicationFailure): { type: string | undefined | null; nonRetryable: boolean | null | undefined; nextRetryDelay: unknown } {
  return { type: failure.type, nonRetryable: failure.nonRetryable, nextRetryDelay: failure.nextRetryDelay };
}

describe('classifyError: Messages API errors', () => {
  test.each<[number, string, FailureType, boolean]>([
    [400, 'invalid_request_error', 'claude.invalid_request_error', true],
    [401, 'authentication_error', 'claude.authentication_error', true],
    [408, 'timeout_error', 'claude.timeout_error', false],
    [409, 'conflict_error', 'claude.conflict_error', false],
    [413, 'request_too_large', 'claude.request_too_large', true],
    [429, 'rate_limit_error', 'claude.rate_limit_error', false],
    [500, 'api_error', 'claude.api_error', false],
    [529, 'overloaded_error', 'claude.overloaded_error', false],
  ])('%i %s → %s, nonRetryable %s, no delay without a retry header', (status, type, expected, nonRetryable) => {
    const failure = classifyError(apiError(status, type));
    expect(outcome(failure)).toEqual({ type: expected, nonRetryable, nextRetryDelay: undefined });
    expect(failure.message).toBe(`Claude API ${status}: a ${type}`);
    expect(failure.details).toEqual([{ status, requestId: 'req_011' }]);
  });

  test.each<[number, string, Record<string, string>, number]>([
    [429, 'rate_limit_error', { 'retry-after': '7' }, 7000],
    [429, 'rate_limit_error', { 'retry-after-ms': '1500' }, 1500],
    [529, 'overloaded_error', { 'retry-after-ms': '250', 'retry-after': '30' }, 250],
    [500, 'api_error', { 'retry-after': '0' }, 0],
    [408, 'timeout_error', { 'retry-after': '2' }, 2000],
    [409, 'conflict_error', { 'retry-after-ms': '10' }, 10],
  ])('%i %s with %j waits as asked (%i ms)', (status, type, headers, delay) => {
    expect(outcome(classifyError(apiError(status, type, headers)))).toEqual({ type: `claude.${type}`, nonRetryable: false, nextRetryDelay: delay });
  });

  test('a retry header on a non-retryable status is not a delay: nothing is retried', () => {
    expect(outcome(classifyError(apiError(400, 'invalid_request_error', { 'retry-after': '5' })))).toEqual({
      type: 'claude.invalid_request_error',
      nonRetryable: true,
      nextRetryDelay: undefined,
    });
  });

  test('x-should-retry wins over the status, both ways', () => {
    expect(outcome(classifyError(apiError(529, 'overloaded_error', { 'x-should-retry': 'false', 'retry-after': '3' })))).toEqual({
      type: 'claude.overloaded_error',
      nonRetryable: true,
      nextRetryDelay: undefined,
    });
    expect(outcome(classifyError(apiError(400, 'invalid_request_error', { 'x-should-retry': 'true', 'retry-after-ms': '40' })))).toEqual({
      type: 'claude.invalid_request_error',
      nonRetryable: false,
      nextRetryDelay: 40,
    });
    expect(outcome(classifyError(apiError(401, 'authentication_error', { 'x-should-retry': 'true' })))).toEqual({
      type: 'claude.authentication_error',
      nonRetryable: false,
      nextRetryDelay: undefined,
    });
    // Anything but "true" or "false" is no word at all: the status decides.
    expect(classifyError(apiError(429, 'rate_limit_error', { 'x-should-retry': 'maybe' })).nonRetryable).toBe(false);
  });

  test('an answer without an error body is typed by its status', () => {
    expect(outcome(classifyError(apiError(503, undefined)))).toEqual({ type: 'claude.http_503', nonRetryable: false, nextRetryDelay: undefined });
    expect(outcome(classifyError(apiError(404, undefined)))).toEqual({ type: 'claude.http_404', nonRetryable: true, nextRetryDelay: undefined });
  });

  test('no HTTP answer: connection errors and timeouts are retried; a cancelled call is typed as such', () => {
    const refused = new APIConnectionError({ message: 'Connection error.', cause: new Error('ECONNREFUSED') });
    expect(outcome(classifyError(refused))).toEqual({ type: 'claude.connection_error', nonRetryable: false, nextRetryDelay: undefined });
    expect(classifyError(refused).message).toBe('cannot reach the Claude API: Connection error.');
    expect(outcome(classifyError(new APIConnectionTimeoutError()))).toEqual({
      type: 'claude.connection_error',
      nonRetryable: false,
      nextRetryDelay: undefined,
    });
    expect(outcome(classifyError(new APIUserAbortError()))).toEqual({ type: 'claude.cancelled', nonRetryable: false, nextRetryDelay: undefined });
  });
});

describe('retryDelayMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  test('reads an HTTP date relative to now, and never goes below zero', () => {
    expect(retryDelayMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryDelayMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0);
  });

  test('ignores what it cannot read', () => {
    expect(retryDelayMs(undefined, now)).toBeUndefined();
    expect(retryDelayMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryDelayMs(new Headers({ 'retry-after-ms': '-1' }), now)).toBeUndefined();
    expect(retryDelayMs(new Headers({ 'retry-after-ms': 'x', 'retry-after': '1' }), now)).toBe(1000);
  });
});

describe('classifyError: MCP errors', () => {
  test.each<[string, SdkErrorCode, FailureType, boolean]>([
    // The SDK's own (local) errors: the connection closed under the request, or the request timed out.
    ['the SDK: connection closed', SdkErrorCode.ConnectionClosed, 'mcp.connection_closed', false],
    ['the SDK: not connected', SdkErrorCode.NotConnected, 'mcp.connection_closed', false],
    ['the SDK: request timeout', SdkErrorCode.RequestTimeout, 'mcp.timeout', false],
    ['the SDK: anything else', SdkErrorCode.InvalidResult, 'host.unexpected', false],
  ])('%s (%s) → %s, nonRetryable %s', (_name, code, type, nonRetryable) => {
    expect(outcome(classifyError(new SdkError(code, 'what the SDK said')))).toEqual({ type, nonRetryable, nextRetryDelay: undefined });
  });

  test.each<[string, number, string, FailureType, boolean]>([
    ['invalid params', ProtocolErrorCode.InvalidParams, 'what the server said', 'mcp.invalid_params', true],
    ['method not found', ProtocolErrorCode.MethodNotFound, 'what the server said', 'mcp.method_not_found', true],
    // Often transient: retried, within the tool's attempt budget.
    ['internal error', ProtocolErrorCode.InternalError, 'what the server said', 'mcp.server_error', false],
    // Since the SDK v2 a server's -32000 can no longer be taken for the SDK's own "connection closed".
    ['a server error the server answered', -32000, 'Connection closed', 'mcp.server_error', false],
    ['a timeout the server answered', -32001, 'Request timed out', 'mcp.timeout', false],
    ['another server-defined code', -32099, 'what the server said', 'mcp.jsonrpc_error', true],
    ['invalid request', ProtocolErrorCode.InvalidRequest, 'what the server said', 'mcp.jsonrpc_error', true],
  ])('a server answering %s (%i %j) → %s, nonRetryable %s', (_name, code, message, type, nonRetryable) => {
    expect(outcome(classifyError(new ProtocolError(code, message)))).toEqual({ type, nonRetryable, nextRetryDelay: undefined });
  });

  test.each<[OAuthErrorCode, boolean]>([
    [OAuthErrorCode.InvalidClient, true],
    [OAuthErrorCode.UnauthorizedClient, true],
    [OAuthErrorCode.InvalidGrant, true],
    [OAuthErrorCode.InvalidScope, true],
    [OAuthErrorCode.ServerError, false],
    [OAuthErrorCode.TemporarilyUnavailable, false],
  ])('an authorization server answering %s → mcp.auth_failed, nonRetryable %s', (code, nonRetryable) => {
    const failure = classifyError(new OAuthError(code, 'client authentication failed'));
    expect(outcome(failure)).toEqual({ type: 'mcp.auth_failed', nonRetryable, nextRetryDelay: undefined });
    expect(failure.message).toBe(`the MCP server's authorization server refused the host's OAuth request (${code}): client authentication failed`);
  });

  test('a server error names its code and keeps what the server said', () => {
    expect(classifyError(new ProtocolError(ProtocolErrorCode.InternalError, 'the database went away')).message).toBe(
      'server error (JSON-RPC -32603): the database went away',
    );
  });
});

describe('classifyError: the host’s own and other errors', () => {
  test('a HostError keeps its type, message and decision', () => {
    const retryable = classifyError(new HostError('the worker is shutting down', 'mcp.shutting_down', true));
    expect(outcome(retryable)).toEqual({ type: 'mcp.shutting_down', nonRetryable: false, nextRetryDelay: undefined });
    expect(retryable.message).toBe('the worker is shutting down');
    const final = classifyError(new HostError('digest differs', 'host.transcript_mismatch', false));
    expect(outcome(final)).toEqual({ type: 'host.transcript_mismatch', nonRetryable: true, nextRetryDelay: undefined });
  });

  test('an ApplicationFailure passes through as it is', () => {
    const given = ApplicationFailure.create({ type: 'custom.kind', message: 'decided elsewhere', nonRetryable: true, nextRetryDelay: 5 });
    expect(classifyError(given)).toBe(given);
  });

  test.each<[string, unknown, string]>([
    ['an Error', new TypeError('x is not a function'), 'x is not a function'],
    ['a string', 'thrown text', 'thrown text'],
    ['undefined', undefined, 'undefined'],
  ])('%s is host.unexpected and retried', (_name, thrown, message) => {
    const failure = classifyError(thrown);
    expect(outcome(failure)).toEqual({ type: 'host.unexpected', nonRetryable: false, nextRetryDelay: undefined });
    expect(failure.message).toBe(message);
  });

  test('classified passes results through and throws classified failures', async () => {
    await expect(classified(() => Promise.resolve(42))).resolves.toBe(42);
    await expect(classified(() => Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, 'bad')))).rejects.toMatchObject({
      type: 'mcp.invalid_params',
      nonRetryable: true,
    });
  });
});
