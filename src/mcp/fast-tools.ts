/**
 * Fast tools (mcp.json `fast`, `fastTools`; issue 11): tools whose calls run as Temporal local
 * activities, in the workflow task that asked for them, instead of as activities of their own. That
 * spares one activity dispatch and one workflow task per call, and changes what a lost worker costs
 * (src/errors/tool-retry-policy.ts states the semantics). The MCP layer writes the flag into each
 * tool's catalogue route, so the workflow decides from the catalogue it got from `listTools`, never
 * from the environment.
 */

/** A server's fast-tool settings as read from mcp.json. */
export interface ServerFastTools {
  /** Every tool of the server is fast. */
  fast?: boolean;
  /** These tools of the server (MCP names, as the server lists them) are fast. */
  fastTools?: string[];
}

/** Whether calls of the server's tool `mcpToolName` run as local activities. */
export function isFastTool(server: ServerFastTools, mcpToolName: string): boolean {
  return server.fast === true || (server.fastTools?.includes(mcpToolName) ?? false);
}
