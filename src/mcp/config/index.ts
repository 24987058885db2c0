/**
 * MCP server configuration (mcp.json and the formats of Claude Desktop, Claude Code, Cursor and
 * VS Code): the types the connection layer reads, and the functions that produce them.
 */
export { McpConfigError, type McpConfigErrorLocation } from './config-error';
export { loadMcpConfig } from './load-mcp-config';
export type { McpServerConfig, ParseMcpConfigOptions, ToolFilter } from './mcp-server-config';
export { parseMcpConfig } from './parse-mcp-config';
