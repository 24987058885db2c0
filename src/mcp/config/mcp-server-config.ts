import type { OAuthServerConfig } from '../oauth/oauth-config';
import type { ServerInputSettings } from '../../input/server-input-policy';
import type { ServerApproval } from '../../approval/approval-mode';
import type { ServerFastTools } from '../fast-tools';
import type { ServerToolLoading } from '../tool-loading';

/**
 * Which of a server's tools are offered to Claude. Entries are MCP tool names exactly as
 * the server lists them. `allow` (when present) keeps only the named tools; `deny` then
 * removes the named ones.
 */
export interface ToolFilter {
  allow?: string[];
  deny?: string[];
}

/**
 * One MCP server the host connects to, normalised from any of the supported file formats.
 *
 * Secrets: the values of `env` and `headers` (and often `url` query strings) are
 * credentials. They must stay in the worker process: never put them in workflow inputs,
 * activity results, logs or error messages, all of which end up in Temporal history.
 *
 * - `stdio`: `env` holds only the variables the file sets; the connection layer adds
 *   the usual inherited ones (PATH, HOME, ...). `command` is absolute when the file gave
 *   a relative path with a slash, and otherwise as written (looked up on PATH).
 * - `http`: Streamable HTTP; the connection layer falls back to legacy SSE.
 * - `sse`: legacy HTTP+SSE only, because the file said `"type": "sse"`.
 *
 * Either kind may carry `approval` and `toolApproval` (src/approval/approval-mode.ts), and `fast`
 * and `fastTools` (src/mcp/fast-tools.ts), and `deferLoading` and `alwaysLoaded` (src/mcp/tool-loading.ts).
 */
export type McpServerConfig = (
  | {
      name: string;
      transport: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
      tools: ToolFilter;
      timeoutMs?: number;
      /** `protocolVersion` in the file: the one MCP revision spoken with this server (no negotiation). */
      protocolVersion?: string;
    }
  | {
      name: string;
      transport: 'http' | 'sse';
      url: string;
      headers: Record<string, string>;
      /** OAuth settings (`oauth` in the file); false turns OAuth off (src/mcp/oauth). */
      oauth?: OAuthServerConfig | false;
      tools: ToolFilter;
      timeoutMs?: number;
      /** `protocolVersion` in the file: the one MCP revision spoken with this server (no negotiation). */
      protocolVersion?: string;
    }
) &
  /** Tool approval: `approval` (the server's default) and `toolApproval` (per MCP tool name). */
  ServerApproval &
  /** Fast tools, run as local activities: `fast` (all the server's tools) and `fastTools` (some). */
  ServerFastTools &
  /** Deferred loading under tool search: `deferLoading` (the server's tools) and `alwaysLoaded` (some never). */
  ServerToolLoading &
  /** Requests the server makes: `elicitation` and `sampling` policies, and its `roots`. */
  ServerInputSettings;

/** Options for `parseMcpConfig`. */
export interface ParseMcpConfigOptions {
  /** Variables for `${VAR}` expansion (normally `process.env`). */
  env: Record<string, string | undefined>;
  /** The file the JSON came from, used only to prefix error messages. */
  source: string;
  /** Directory that relative `cwd` and `./command` paths are resolved against. */
  baseDir: string;
}
