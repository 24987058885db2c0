import type { ToolFilter } from './config';

/**
 * Whether a server's allow/deny filter lets the host offer (and call) the tool with this exact MCP
 * name: `allow`, when present, keeps only the named tools; `deny` then removes the named ones.
 */
export function isToolAllowed(filter: ToolFilter, name: string): boolean {
  if (filter.allow && !filter.allow.includes(name)) return false;
  return !(filter.deny && filter.deny.includes(name));
}
