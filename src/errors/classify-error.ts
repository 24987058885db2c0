/**
 * The one place where an activity error becomes a typed `ApplicationFailure` (house rule 5):
 * which failures Temporal retries, and which it must not, is decided here case by case.
 */
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { OAuthError, OAuthErrorCode, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ClaudeTimeLimitError } from './claude-time-limits';
import type { ClaudeFailureType, FailureType } from './failure-types';
import { HostError } from './host-error';
import { retryDelayMs } from './retry-delay';

/** HTTP statuses of the Messages API worth another attempt (timeouts, conflicts, rate limits, overload). */
const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** The only way a failure is made here: its type has to be one of {@link FailureType}. */
function failure(type: FailureType, message: string, retryable: boolean): ApplicationFailure {
  return retryable ? ApplicationFailure.retryable(message, type) : ApplicationFailure.nonRetryable(message, type);
}

/** Error types of an `error` event in a stream that began (no HTTP status then) worth another attempt. */
const RETRYABLE_STREAM_ERRORS = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/** An `error` event after a stream began: the status was 200, so the error's type decides. */
function claudeStreamFailure(err: APIError): ApplicationFailure {
  const type: ClaudeFailureType = `claude.${err.type ?? 'api_error'}`;
  const retryable = RETRYABLE_STREAM_ERRORS.has(err.type ?? 'api_error');
  return failure(type, `Claude API error in the stream: ${err.apiMessage ?? err.message}`, retryable);
}

function claudeFailure(err: APIError): ApplicationFailure {
  if (err.status === undefined) return claudeStreamFailure(err);
  const status = err.status;
  const shouldRetry = err.headers?.get('x-should-retry');
  // `x-should-retry` is the server's explicit word and wins over the status code.
  const retryable =
    shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : RETRYABLE_STATUSES.has(status) || status >= 500;
  const type: ClaudeFailureType = `claude.${err.type ?? `http_${status}`}`;
  const message = `Claude API ${status}: ${err.apiMessage ?? err.message}`;
  const details = [{ status, requestId: err.requestID ?? null }];
  if (!retryable) return ApplicationFailure.create({ type, message, nonRetryable: true, details });
  const delay = retryDelayMs(err.headers);
  return ApplicationFailure.create({ type, message, details, ...(delay !== undefined ? { nextRetryDelay: delay } : {}) });
}

/** The JSON-RPC code a server answered with when it meant "timed out" (v1's `ErrorCode.RequestTimeout`). */
const JSONRPC_REQUEST_TIMEOUT = -32001;

/**
 * JSON-RPC errors a server answered: -32603 (internal error) and -32000 (server error) are retried,
 * being often transient (a busy server, a backend that went away for a moment), while the tool's
 * attempt budget bounds them; a server's own timeout is retried as one; every other answer is final:
 * calling again gives the same answer.
 */
function mcpProtocolFailure(err: ProtocolError): ApplicationFailure {
  // A server may answer any number: the enum names the ones the spec defines.
  switch (err.code) {
    case JSONRPC_REQUEST_TIMEOUT:
      return failure('mcp.timeout', `MCP request timed out: ${err.message}`, true);
    case ProtocolErrorCode.InvalidParams as number:
      return failure('mcp.invalid_params', `rejected the arguments (JSON-RPC ${err.code}): ${err.message}`, false);
    case ProtocolErrorCode.MethodNotFound as number:
      return failure('mcp.method_not_found', `method not found (JSON-RPC ${err.code}): ${err.message}`, false);
    case ProtocolErrorCode.InternalError as number:
    case -32000:
      return failure('mcp.server_error', `server error (JSON-RPC ${err.code}): ${err.message}`, true);
    default:
      return failure('mcp.jsonrpc_error', `JSON-RPC error ${err.code}: ${err.message}`, false);
  }
}

/**
 * The MCP SDK's own errors (local, never on the wire): a closed connection and a timeout are
 * retried; anything else it raises (an HTTP status, a result it could not read) is unexpected and
 * retried as such, bounded by the activity's attempts.
 */
function mcpSdkFailure(err: SdkError): ApplicationFailure {
  switch (err.code) {
    case SdkErrorCode.ConnectionClosed:
    case SdkErrorCode.NotConnected:
      return failure('mcp.connection_closed', `MCP connection closed: ${err.message}`, true);
    case SdkErrorCode.RequestTimeout:
      return failure('mcp.timeout', `MCP request timed out: ${err.message}`, true);
    default:
      return failure('host.unexpected', `MCP SDK error (${err.code}): ${err.message}`, true);
  }
}

/** OAuth errors of the authorization server that say "not now" rather than "no". */
const TRANSIENT_OAUTH_ERRORS: ReadonlySet<string> = new Set([OAuthErrorCode.ServerError, OAuthErrorCode.TemporarilyUnavailable]);

/**
 * An authorization server's OAuth error (RFC 6749 §5.2) met while getting a token for an MCP
 * server: final, except its own transient ones.
 */
function oauthFailure(err: OAuthError): ApplicationFailure {
  const message = `the MCP server's authorization server refused the host's OAuth request (${err.code}): ${err.message}`;
  return failure('mcp.auth_failed', message, TRANSIENT_OAUTH_ERRORS.has(err.code));
}

/**
 * Classifies any error thrown inside an activity. Unknown errors stay retryable (Temporal's default),
 * bounded by each activity's maximum attempts.
 */
export function classifyError(err: unknown): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof HostError) return failure(err.type, err.message, err.retryable);
  if (err instanceof ClaudeTimeLimitError) {
    return err.limit === 'stall' ? failure('claude.stalled', err.message, true) : failure('claude.timeout', err.message, false);
  }
  if (err instanceof APIUserAbortError) return failure('claude.cancelled', 'the Claude call was cancelled', true);
  if (err instanceof APIConnectionError) return failure('claude.connection_error', `cannot reach the Claude API: ${err.message}`, true);
  if (err instanceof APIError) return claudeFailure(err as APIError);
  if (err instanceof ProtocolError) return mcpProtocolFailure(err);
  if (err instanceof SdkError) return mcpSdkFailure(err);
  if (err instanceof OAuthError) return oauthFailure(err);
  const message = err instanceof Error ? err.message : String(err);
  return failure('host.unexpected', message, true);
}

/** Runs an activity body and classifies whatever it throws. */
export async function classified<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    throw classifyError(err);
  }
}
