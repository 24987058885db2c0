/**
 * `mcp-host servers`: every server of an `mcp.json`, connected the way a worker connects (same
 * loader, same pool, same negotiation, same OAuth token store), asked who it is and what it has,
 * then closed. All servers at once, each waited for as long as a turn's listing waits for it; a
 * server that fails is a `failing` row, and a list that fails is that cell's error, never the
 * report's.
 */
import { SSEClientTransport, type Client, type ServerCapabilities } from '@modelcontextprotocol/client';
import { loadMcpConfig, type McpServerConfig } from '../mcp/config';
import { McpConnections } from '../mcp/mcp-connections';
import type { OAuthStore } from '../mcp/oauth/oauth-store';
import { oauthStoreFromEnv } from '../mcp/oauth/oauth-store-from-env';
import { isToolAllowed } from '../mcp/is-tool-allowed';
import { listingConnectWaitMs, listServerTools } from '../mcp/tool-catalog';
import { serverAuthState } from './server-auth';
import type { ListedCount, ServerRow, ToolCount } from './server-row';

/** Options of {@link serverReport}. */
export interface ServerReportOptions {
  /** Where the MCP layer's lines go (server stderr, connection events), redacted; default: nowhere. */
  log?: (line: string) => void;
  /** The OAuth token store (default: the one `mcp-host login` and the workers use). */
  store?: OAuthStore;
}

/** What a server's config says, secrets left out: the start of its row. */
type ConfigPart = Pick<ServerRow, 'name' | 'transport' | 'command' | 'args' | 'url'>;

/** The text of an error as one redacted line. */
function errorLine(connections: McpConnections, err: unknown): string {
  return connections.redact(err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

function configPart(connections: McpConnections, server: McpServerConfig): ConfigPart {
  const redact = (text: string): string => connections.redact(text);
  return server.transport === 'stdio'
    ? { name: server.name, transport: 'stdio', command: redact(server.command), args: server.args.map(redact) }
    : { name: server.name, transport: server.transport, url: redact(server.url) };
}

/** The declared capabilities by name; `extensions` and `experimental` by each of their keys. */
function capabilityNames(capabilities: ServerCapabilities | undefined): string[] {
  const names: string[] = [];
  for (const [key, value] of Object.entries(capabilities ?? {})) {
    if (value === undefined || value === null) continue;
    if ((key === 'extensions' || key === 'experimental') && typeof value === 'object') {
      const prefix = key === 'extensions' ? 'extension' : 'experimental';
      names.push(...Object.keys(value).map((id) => `${prefix}:${id}`));
    } else {
      names.push(key);
    }
  }
  return names;
}

/** A count, or the reason listing failed as this cell's text. */
async function counted(connections: McpConnections, list: () => Promise<number>): Promise<ListedCount> {
  try {
    return { count: await list() };
  } catch (err) {
    return { error: errorLine(connections, err) };
  }
}

/**
 * The tools the host offers (as a worker lists them) and, when the entry filters them, how many of
 * those the server lists the filter keeps back (unknown, and left out, if that second list fails).
 */
async function toolCount(connections: McpConnections, server: McpServerConfig, client: Client): Promise<ToolCount> {
  let count: number;
  try {
    count = (await listServerTools(connections, server)).length;
  } catch (err) {
    return { error: errorLine(connections, err) };
  }
  if (server.tools.allow === undefined && server.tools.deny === undefined) return { count };
  const listed = await client.listTools(undefined, { cacheMode: 'bypass' }).catch(() => undefined);
  if (listed === undefined) return { count };
  return { count, filteredOut: listed.tools.filter((tool) => !isToolAllowed(server.tools, tool.name)).length };
}

/** What the connected server says of itself, and its counts. */
async function connectedPart(connections: McpConnections, server: McpServerConfig, client: Client): Promise<Omit<ServerRow, keyof ConfigPart | 'auth'>> {
  const capabilities = client.getServerCapabilities();
  const info = client.getServerVersion();
  const protocol = connections.protocol(server.name);
  const declares = (name: 'resources' | 'prompts'): boolean => capabilities?.[name] !== undefined;
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    toolCount(connections, server, client),
    declares('resources') ? counted(connections, async () => (await client.listResources()).resources.length) : undefined,
    declares('resources') ? counted(connections, async () => (await client.listResourceTemplates()).resourceTemplates.length) : undefined,
    declares('prompts') ? counted(connections, async () => (await client.listPrompts()).prompts.length) : undefined,
  ]);
  return {
    health: 'connected',
    ...(server.transport === 'http' ? { sseFallback: client.transport instanceof SSEClientTransport } : {}),
    ...(protocol !== undefined ? { protocol } : {}),
    ...(info !== undefined ? { serverInfo: { name: info.name, version: info.version } } : {}),
    capabilities: capabilityNames(capabilities),
    tools,
    ...(resources !== undefined ? { resources } : {}),
    ...(resourceTemplates !== undefined ? { resourceTemplates } : {}),
    ...(prompts !== undefined ? { prompts } : {}),
  };
}

/** One server's row; never rejects. */
async function serverRow(connections: McpConnections, server: McpServerConfig, store: OAuthStore): Promise<ServerRow> {
  const config = configPart(connections, server);
  try {
    // Waited for as a turn's listing waits (src/mcp/tool-catalog.ts): a server still connecting past it is failing.
    const connected = await connections.use(server.name, (client) => connectedPart(connections, server, client), {
      failFastWhenDown: true,
      connectWaitMs: listingConnectWaitMs(server),
    });
    return { ...config, ...connected, auth: await serverAuthState(server, undefined, store) };
  } catch (err) {
    return { ...config, health: 'failing', error: errorLine(connections, err), auth: await serverAuthState(server, err, store) };
  }
}

/**
 * Connects to every server of the `mcp.json` at `configPath` at once and returns one row each, in
 * config order, once every connection is closed again.
 * @throws McpConfigError when the file cannot be read or is invalid.
 */
export async function serverReport(configPath: string, options: ServerReportOptions = {}): Promise<ServerRow[]> {
  const servers = await loadMcpConfig(configPath);
  const store = options.store ?? oauthStoreFromEnv();
  const connections = new McpConnections(servers, options.log ?? (() => undefined), { oauth: { store } });
  try {
    return await Promise.all(connections.list().map((server) => serverRow(connections, server, store)));
  } finally {
    await connections.closeAll();
  }
}
