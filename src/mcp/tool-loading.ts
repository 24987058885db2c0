/**
 * Deferred loading (mcp.json `deferLoading`, `alwaysLoaded`; issue 29): which of a server's tools
 * go out with `defer_loading: true` when tool search is on (src/claude/tool-search.ts). The MCP
 * layer writes the answer into each catalogue tool, so the request builder decides from the
 * catalogue alone; tools of servers without the settings are unchanged, and so are their digests.
 */

/** A server's deferred-loading settings as read from mcp.json. */
export interface ServerToolLoading {
  /** true: the server's tools are deferred (tool search on for them even under the threshold); false: never. */
  deferLoading?: boolean;
  /** These tools of the server (MCP names, as the server lists them) are never deferred. */
  alwaysLoaded?: string[];
}

/**
 * The `defer_loading` a catalogue tool carries: true (deferred whenever tool search is on), false
 * (never deferred), or undefined (as the conversation's tool search decides).
 */
export function toolLoading(server: ServerToolLoading, mcpToolName: string): boolean | undefined {
  if (server.alwaysLoaded?.includes(mcpToolName) === true) return false;
  return server.deferLoading;
}
