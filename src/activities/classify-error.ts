/**
 * The one place where an activity error becomes a typed `ApplicationFailure` (house rule 5):
 * which failures Temporal retries, and which it must not, is decided here case by case.
 */
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { HostError } from './host-error';

/** HTTP statuses of the Messages API worth another attempt (timeouts, conflicts, rate limits, overload). */
const RETRYABLE_STATUSES = new Set([408, 409, 429]);

/** The delay the API asked for: `retry-after-ms` (ms) wins over `retry-after` (seconds or a date). */
export function retryDelayMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function claudeFailure(err: APIError): ApplicationFailure {
  const status = err.status ?? 0;
  const shouldRetry = err.headers?.get('x-should-retry');
  // `x-should-retry` is the server's explicit word and wins over the status code.
  const retryable =
    shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : RETRYABLE_STATUSES.has(status) || status >= 500;
  const kind = err.type ?? `http_${status}`;
  const message = `Claude API ${status}: ${err.apiMessage ?? err.message}`;
  const details = [{ status, requestId: err.requestID ?? null }];
  if (!retryable) return ApplicationFailure.create({ type: `claude.${kind}`, message, nonRetryable: true, details });
  const delay = retryDelayMs(err.headers);
  return ApplicationFailure.create({
    type: `claude.${kind}`,
    message,
    details,
    ...(delay !== undefined ? { nextRetryDelay: delay } : {}),
  });
}

/** JSON-RPC errors the server answered on purpose: calling again gives the same answer. */
function mcpFailure(err: McpError): ApplicationFailure {
  switch (err.code as ErrorCode) {
    case ErrorCode.ConnectionClosed:
      return ApplicationFailure.retryable(`MCP connection closed: ${err.message}`, 'mcp.connection_closed');
    case ErrorCode.RequestTimeout:
      return ApplicationFailure.retryable(`MCP request timed out: ${err.message}`, 'mcp.timeout');
    case ErrorCode.InvalidParams:
      return ApplicationFailure.nonRetryable(`rejected the arguments (JSON-RPC ${err.code}): ${err.message}`, 'mcp.invalid_params');
    case ErrorCode.MethodNotFound:
      return ApplicationFailure.nonRetryable(`method not found (JSON-RPC ${err.code}): ${err.message}`, 'mcp.method_not_found');
    default:
      return ApplicationFailure.nonRetryable(`JSON-RPC error ${err.code}: ${err.message}`, 'mcp.jsonrpc_error');
  }
}

/**
 * Classifies any error thrown inside an activity. Unknown errors stay retryable (Temporal's default),
 * bounded by each activity's maximum attempts.
 */
export function classifyError(err: unknown): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof HostError) {
    return err.retryable ? ApplicationFailure.retryable(err.message, err.type) : ApplicationFailure.nonRetryable(err.message, err.type);
  }
  if (err instanceof APIUserAbortError) return ApplicationFailure.retryable('the Claude call was cancelled', 'claude.cancelled');
  if (err instanceof APIConnectionError) {
    return ApplicationFailure.retryable(`cannot reach the Claude API: ${err.message}`, 'claude.connection_error');
  }
  if (err instanceof APIError) return claudeFailure(err as APIError);
  if (err instanceof McpError) return mcpFailure(err);
  const message = err instanceof Error ? err.message : String(err);
  return ApplicationFailure.retryable(message, 'host.unexpected');
}

/** Runs an activity body and classifies whatever it throws. */
export async function classified<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    throw classifyError(err);
  }
}
