/**
 * One configured MCP server as `mcp-host servers` reports it (and `--json` prints it): what the
 * file says, what the server answered, and what the host offers from it. The field names are the
 * JSON output's and stay stable (README, *mcp-host servers*). Nothing in a row is a secret: no env
 * or header values, no tokens, URLs and arguments redacted.
 */
import type { NegotiatedProtocol } from '../mcp/transport/negotiation';

/** How many of one kind of thing a server listed, or why listing them failed (one line, redacted). */
export type ListedCount = { count: number } | { error: string };

/**
 * The tools the host offers from a server (as a worker would: filtered, checked), and how many the
 * server lists that the entry's `tools` allow/deny filter keeps back (only with a filter).
 */
export type ToolCount = { count: number; filteredOut?: number } | { error: string };

/**
 * How the host authenticates to the server:
 * - `none`: stdio, or HTTP without OAuth (`"oauth": false`, an `Authorization` header of its own, or
 *   a server that never asked and has no tokens stored);
 * - `logged in`: the OAuth token store holds tokens for it (`mcp-host login`);
 * - `client credentials`: `"oauth": {"grant": "client_credentials"}`, tokens without a person;
 * - `workload identity`: `"oauth": {"grant": "jwt_bearer"}`, tokens for the workload's own identity token;
 * - `login needed`: connecting failed for want of a login (run `mcp-host login NAME`).
 */
export type AuthState = 'none' | 'logged in' | 'client credentials' | 'workload identity' | 'login needed';

/** One server's row (see the module comment); optional fields are absent when unknown or not declared. */
export interface ServerRow {
  /** Its name in mcp.json. */
  name: string;
  /** The configured transport. */
  transport: 'stdio' | 'http' | 'sse';
  /** `http` once connected: true when the server refused Streamable HTTP and legacy SSE is spoken. */
  sseFallback?: boolean;
  /** stdio: the command (redacted), never its environment. */
  command?: string;
  /** stdio: its arguments (each redacted). */
  args?: string[];
  /** http, sse: the URL, credentials and secret query values redacted; never the headers. */
  url?: string;
  /** `connected`, or `failing` with {@link error}. */
  health: 'connected' | 'failing';
  /** Why it is failing: one line, redacted. */
  error?: string;
  /** The revision spoken, its era, and how it was chosen (`probed`, `remembered`, `pinned`). */
  protocol?: NegotiatedProtocol;
  /** The server's own name and version (serverInfo), when it gave them. */
  serverInfo?: { name: string; version: string };
  /**
   * The capabilities it declares, by name (`tools`, `resources`, `prompts`, `logging`,
   * `completions`, `tasks`…; `extension:<id>` and `experimental:<key>` for each of those).
   */
  capabilities?: string[];
  /** The tools the host offers from it. */
  tools?: ToolCount;
  /** Its resources, when it declares `resources`. */
  resources?: ListedCount;
  /** Its resource templates, when it declares `resources`. */
  resourceTemplates?: ListedCount;
  /** Its prompts, when it declares `prompts`. */
  prompts?: ListedCount;
  /** How the host authenticates to it. */
  auth: AuthState;
}
