import { McpConfigError } from './config-error';
import { describeType, isPlainObject } from './describe-json';
import type { McpServerConfig, ParseMcpConfigOptions } from './mcp-server-config';
import { parseServerEntry } from './server-entry';

/**
 * Reads the MCP server list out of an already-parsed configuration file.
 *
 * Accepts `{"mcpServers": {...}}` (Claude Desktop, Claude Code `.mcp.json`, Cursor) and
 * `{"servers": {...}}` (VS Code; its `inputs` key is ignored). Each entry is either
 * `{command, args?, env?, cwd?}` (stdio) or `{url, headers?}` (HTTP), with an optional
 * `type` of `stdio`, `http`, `streamable-http` or `sse`, plus the host's extensions
 * `tools: {allow?, deny?}`, `timeoutMs` and `disabled: true` (entry skipped).
 *
 * `${VAR}` and `${VAR:-default}` (default used when VAR is unset or empty) are expanded
 * in command, args, env values, cwd, url and header values; `${env:VAR}` is accepted as
 * VS Code spells it. `$VAR` without braces and `$$` are left as written. An unset
 * variable without a default is an error, as is VS Code's `${input:...}`.
 *
 * Secrets: `env` and `headers` values are credentials and must stay in the worker
 * process (see {@link McpServerConfig}); error messages never include them.
 *
 * @throws McpConfigError naming the source, server and field of the first problem.
 */
export function parseMcpConfig(json: unknown, options: ParseMcpConfigOptions): McpServerConfig[] {
  const { source } = options;
  if (!isPlainObject(json)) {
    throw new McpConfigError(
      `the configuration must be a JSON object with "mcpServers" or "servers", not ${describeType(json)}`,
      { source },
    );
  }
  const hasMcpServers = json.mcpServers !== undefined;
  const hasServers = json.servers !== undefined;
  if (hasMcpServers && hasServers) {
    throw new McpConfigError('has both "mcpServers" and "servers"; use one of them', { source });
  }
  if (!hasMcpServers && !hasServers) {
    throw new McpConfigError(
      'has neither "mcpServers" (Claude Desktop, Claude Code, Cursor) nor "servers" (VS Code)',
      { source },
    );
  }
  const key = hasMcpServers ? 'mcpServers' : 'servers';
  const servers = json[key];
  if (!isPlainObject(servers)) {
    throw new McpConfigError(`"${key}" must be an object of servers by name, not ${describeType(servers)}`, {
      source,
    });
  }

  const result: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const server = parseServerEntry(name, entry, options);
    if (server !== undefined) result.push(server);
  }
  return result;
}
