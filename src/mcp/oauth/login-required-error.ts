import { HostError } from '../../errors/host-error';

/**
 * A server needs OAuth and this worker has no token it can use: nobody ran `mcp-host login`, the
 * authorization server refused the refresh, or the server asks for a scope the tokens lack. A
 * headless worker cannot open a browser, so the call fails at once (non-retryable) with a message
 * that says what to run; the workflow hands it to Claude as the host's `is_error` result.
 */
export class OAuthLoginRequiredError extends HostError {
  /**
   * @param server The server's name in mcp.json.
   * @param why What is missing, e.g. "no stored OAuth tokens" (never a token or code).
   */
  constructor(
    readonly server: string,
    why: string,
  ) {
    super(`MCP server "${server}" needs an OAuth login (${why}): run \`mcp-host login ${server}\``, 'mcp.auth_required', false);
  }
}
