/**
 * Whether a tool may run when Claude calls it (issue 10, tool approval): `auto` runs it at once,
 * `ask` waits for the user's approve or deny, `deny` never runs it. Set per server in mcp.json
 * (`approval`) with per-tool overrides (`toolApproval`); the MCP layer writes each tool's mode into
 * its catalogue route, so the workflow decides from the catalogue it got from `listTools`, never
 * from the environment. Pure: the workflow sandbox imports it.
 */

/** A tool's approval mode. */
export type ApprovalMode = 'auto' | 'ask' | 'deny';

/** Every mode, in the order the docs and error messages name them. */
export const APPROVAL_MODES: readonly ApprovalMode[] = ['auto', 'ask', 'deny'];

/** The mode of tools that name none. */
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'auto';

/** Whether `value` is one of the modes. */
export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value);
}

/** A server's approval settings as read from mcp.json. */
export interface ServerApproval {
  /** The server's default for its tools (default `auto`). */
  approval?: ApprovalMode;
  /** Per MCP tool name (as the server lists it), overriding the server's default. */
  toolApproval?: Record<string, ApprovalMode>;
}

/** The mode of one of the server's tools: its own override, else the server's default, else `auto`. */
export function toolApprovalMode(server: ServerApproval, mcpToolName: string): ApprovalMode {
  const own = server.toolApproval !== undefined && Object.hasOwn(server.toolApproval, mcpToolName) ? server.toolApproval[mcpToolName] : undefined;
  return own ?? server.approval ?? DEFAULT_APPROVAL_MODE;
}

/**
 * The mode a catalogue route carries. Routes hold it only when it is not `auto`, so catalogues
 * (and their digests) of servers without approval settings stay as they were.
 */
export function routeApprovalMode(route: { approval?: ApprovalMode } | undefined): ApprovalMode {
  return route?.approval ?? DEFAULT_APPROVAL_MODE;
}
