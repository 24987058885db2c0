/**
 * Every failure type the host gives an `ApplicationFailure`, in one union: `mcp.*` for MCP servers and
 * connections, `claude.*` for the Messages API, `host.*` for the host's own consistency checks. The
 * workflow's failure messages, the Web UI and the tests read these strings, so a new one is added here
 * and a misspelt one is a type error rather than a silently new type. Pure: types and constants only.
 */
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared';

/** Failures of MCP servers and their connections, raised by `src/mcp` and the tool activities. */
export const MCP_FAILURE_TYPES = [
  /** The activity names a server this worker's mcp.json does not configure (non-retryable). */
  'mcp.unknown_server',
  /** The worker is draining; another worker can take the call. */
  'mcp.shutting_down',
  /** Starting or connecting to the server failed. */
  'mcp.connect_failed',
  /** The tool is excluded by the server's `tools` filter (non-retryable). */
  'mcp.tool_denied',
  /** The call ran past the server's `timeoutMs`, or the SDK's request timeout fired. */
  'mcp.timeout',
  /** The connection broke while the call was in flight: the tool may or may not have run. */
  'mcp.connection_lost',
  /** The SDK reported the connection closed under a pending request. */
  'mcp.connection_closed',
  /** Still unreachable after reconnecting once. */
  'mcp.unreachable',
  /** The server answered `tools/call` with something that is not a result object (non-retryable; recorded histories only). */
  'mcp.invalid_result',
  /**
   * The server broke the protocol during the call: it sent something that is not JSON-RPC, or a
   * result that is not an object. The tool may have run (the tool retry policy decides).
   */
  'mcp.protocol_error',
  /** JSON-RPC -32602: the server rejected the arguments (non-retryable). */
  'mcp.invalid_params',
  /** JSON-RPC -32601 (non-retryable). */
  'mcp.method_not_found',
  /**
   * JSON-RPC -32603 (internal error) or -32000 (server error) answered by the server: often
   * transient, so retried, within the tool's attempt budget.
   */
  'mcp.server_error',
  /** Any other JSON-RPC error the server answered on purpose (non-retryable). */
  'mcp.jsonrpc_error',
  /**
   * The server needs OAuth and the worker has no usable token: never logged in, or the refresh was
   * refused. Non-retryable: only `mcp-host login SERVER` helps (src/mcp/oauth).
   */
  'mcp.auth_required',
  /**
   * The server's authorization server refused the host's OAuth client or grant (`invalid_client`,
   * `unauthorized_client`, `invalid_grant`, `invalid_scope`…): a client-credentials secret or key
   * that is wrong or was rotated, say. Non-retryable: the same credential gets the same answer. Its
   * `server_error` and `temporarily_unavailable` are retried.
   */
  'mcp.auth_failed',
  /**
   * The shared OAuth token store (the S3 one, `MCP_HOST_OAUTH_STORE=s3://…`) could not be reached,
   * refused the request, or its refresh lease stayed held: retryable, the store may come back.
   */
  'mcp.oauth_store_unavailable',
  /**
   * The OAuth token store cannot be used as set up: the S3 store without `MCP_HOST_ENCRYPTION_KEY`,
   * an object encrypted with a key id this process lacks, or one that does not decrypt or parse.
   * Non-retryable: the setting or the store must change (or `mcp-host login` run again).
   */
  'mcp.oauth_store_invalid',
  /**
   * MCP tasks (src/mcp/tasks): the server no longer knows the task a call was polling (restarted,
   * or the task outlived its TTL): the tool may have run, and its result is gone. Retryable as a
   * "may have run" failure: a tool not marked idempotent or read-only is not run again.
   */
  'mcp.task_lost',
  /** MCP tasks: the server cancelled the call's task (not the host), or it asked for input the host cannot give (non-retryable). */
  'mcp.task_cancelled',
  /**
   * MCP tasks: the attempt reached its deadline with the task still running on the server; the next
   * attempt polls the same task. The worker's limit, not the tool's failure: it costs no budget.
   */
  'mcp.task_running',
  /**
   * MCP tasks: polling a task failed (connection, timeout, a retryable JSON-RPC error) after the
   * task existed: the next attempt polls the same task, so the tool does not run again. Counted.
   */
  'mcp.task_poll_failed',
] as const;

/** One of {@link MCP_FAILURE_TYPES}. */
export type McpFailureType = (typeof MCP_FAILURE_TYPES)[number];

/** Failures of the host's own checks between workflow and activities. */
export const HOST_FAILURE_TYPES = [
  /** The transcript read from the workflow does not match the digest the activity was given (non-retryable). */
  'host.transcript_mismatch',
  /** The workflow returned fewer messages than asked for. */
  'host.transcript_short',
  /** The tool catalogue changed between scheduling and running the call. */
  'host.catalog_mismatch',
  /** The context summary changed between scheduling and running the call. */
  'host.summary_mismatch',
  /** The request's messages break the Messages API's pairing rules; the API would answer 400 (non-retryable). */
  'host.invalid_transcript',
  /** The request's settings break the Messages API's rules (a thinking budget not below max_tokens); the API would answer 400 (non-retryable). */
  'host.invalid_request',
  /** An error nobody classified: retried, bounded by the activity's maximum attempts. */
  'host.unexpected',
] as const;

/** One of {@link HOST_FAILURE_TYPES}. */
export type HostFailureType = (typeof HOST_FAILURE_TYPES)[number];

/**
 * The Messages API's `error.type` values: the SDK's list, plus `request_too_large`, which the API
 * sends with a 413 although the SDK's type leaves it out.
 */
export type ClaudeApiErrorType = ErrorType | 'request_too_large';

/** Failures of the Messages API call that are not an HTTP error answer. */
export const CLAUDE_FAILURE_TYPES = [
  /** The call was aborted (the activity was cancelled). */
  'claude.cancelled',
  /** No HTTP answer: DNS, refused connection, reset, timeout. */
  'claude.connection_error',
  /** No response and no stream event for the stall limit (`src/errors/claude-time-limits.ts`): retried. */
  'claude.stalled',
  /** The answer was still coming at the call's total limit: not retried (a retry pays for it again). */
  'claude.timeout',
] as const;

/**
 * Failures of the Messages API call: {@link CLAUDE_FAILURE_TYPES}, an error answer as
 * `claude.<error.type>`, or `claude.http_<status>` when the body named no type.
 */
export type ClaudeFailureType =
  | (typeof CLAUDE_FAILURE_TYPES)[number]
  | `claude.${ClaudeApiErrorType}`
  | `claude.http_${number}`;

/** Every failure type an activity of this host can fail with. */
export type FailureType = McpFailureType | HostFailureType | ClaudeFailureType;
