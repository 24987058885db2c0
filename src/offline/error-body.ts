import { randomId } from './random-id';

/** The JSON body the real API answers an error with. */
export interface FakeErrorBody {
  type: 'error';
  /** `details.error_code` names a refusal the SDK has a class for (e.g. `compaction_block_misplaced`). */
  error: { type: string; message: string; details?: { error_code: string } };
  request_id: string;
}

/** The real API's `error.type` for each status it uses; anything else 5xx is `api_error`. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Default messages, worded like the real API's, so logs of a scripted failure read like a real one. */
const ERROR_MESSAGES: Record<string, string> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of requests has exceeded your rate limit.',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

/** The default `error.type` for an HTTP status, as the real API would send it. */
export function defaultErrorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/**
 * Builds an error body. The same `request_id` should go in the `request-id` header: the SDK reads
 * the header into `error.requestID`, and people quote either one.
 */
export function buildErrorBody(
  status: number,
  errorType: string | undefined,
  message: string | undefined,
  requestId: string = randomId('req_'),
  errorCode?: string,
): FakeErrorBody {
  const type = errorType ?? defaultErrorType(status);
  const error = { type, message: message ?? ERROR_MESSAGES[type] ?? type, ...(errorCode !== undefined ? { details: { error_code: errorCode } } : {}) };
  return { type: 'error', error, request_id: requestId };
}
