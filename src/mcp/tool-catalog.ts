/**
 * The merged tool catalogue of every configured server (S4, S5): all `tools/list` pages of each
 * server (following `nextCursor`), filtered by the server's allow/deny list, named for Claude, with
 * the route back to the exact MCP tool. Kept per worker until a tool list may have changed.
 *
 * Decisions, each logged as a warning naming the server and tool:
 * - a tool the host cannot offer (invalid definition, input schema Claude cannot take, a duplicate
 *   name on the same server, task-only execution this host does not speak) is left out, and the
 *   rest of the catalogue stands;
 * - a server that cannot be listed (down, handshake failed, bad pages) is left out of this catalogue,
 *   which is then not cached, so the next turn tries that server again; only when every server fails
 *   does listing fail (and Temporal retry it).
 */
import { specTypeSchemas, type Client, type Tool as McpTool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { digestOf } from '../conversation/digest';
import type { Tool, ToolCatalog, ToolRouteEntry } from '../conversation/types';
import { toClaudeTool } from './claude-tool';
import type { McpServerConfig } from './config';
import type { McpConnections } from './mcp-connections';
import { isToolAllowed } from './is-tool-allowed';
import { assignClaudeToolNames } from './tool-names';
import { toolApprovalMode } from '../approval/approval-mode';
import { isFastTool } from './fast-tools';

/** A server's call timeout when its config names none. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/** A bound on pages per server, so a server whose cursor never ends cannot hang the host. */
const MAX_PAGES = 1000;
/**
 * The shortest wait of a turn's listing for a server still connecting: starting a process (node,
 * tsx, python, npx) takes seconds by itself, more on a loaded machine.
 */
export const MIN_LISTING_CONNECT_WAIT_MS = 30_000;
/** Each `tools/list` page must come within this; listing is cheap, unlike some tool calls. */
const PAGE_TIMEOUT_MS = 30_000;

/**
 * A page as sent, before any tool is checked: one malformed tool must not make the whole page (and
 * so the whole server) unreadable, which the SDK's strict `listTools` would do.
 */
const PageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().nullish() });

/** A server left out of a catalogue, and why. */
export interface UnavailableServer {
  server: string;
  reason: string;
}

/** A catalogue and whether every server could be listed. */
interface BuiltCatalog {
  catalog: ToolCatalog;
  complete: boolean;
  unavailable: UnavailableServer[];
}

async function listPages(client: Client, server: McpServerConfig): Promise<unknown[]> {
  const tools: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor !== undefined ? { cursor } : {} },
      PageSchema,
      { timeout: PAGE_TIMEOUT_MS },
    );
    tools.push(...result.tools);
    cursor = result.nextCursor ?? undefined;
    if (cursor === undefined) return tools;
    if (cursors.has(cursor)) throw new Error(`MCP server "${server.name}" sent the nextCursor ${JSON.stringify(cursor)} twice`);
    cursors.add(cursor);
  }
  throw new Error(`MCP server "${server.name}" kept returning nextCursor after ${MAX_PAGES} pages`);
}

/**
 * Forgives what does not matter to the host: an input schema without `type` is an object schema
 * (Claude's tools are), and `outputSchema` is never used (results go to Claude as content), so a
 * malformed one must not cost the tool.
 */
function normalised(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const tool: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  delete tool.outputSchema;
  const schema = tool.inputSchema;
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema) && !('type' in schema)) {
    tool.inputSchema = { type: 'object', ...schema };
  }
  return tool;
}

/** A tool definition checked against the SDK's `Tool` schema, or what is wrong with it, in words. */
function parseTool(raw: unknown): { tool: McpTool } | { issues: string } {
  const result = specTypeSchemas.Tool['~standard'].validate(raw);
  if (result instanceof Promise) throw new TypeError('the MCP SDK validated a tool asynchronously');
  if (result.issues === undefined) return { tool: result.value };
  const path = (issue: (typeof result.issues)[number]): string =>
    (issue.path ?? []).map((part) => (typeof part === 'object' ? String(part.key) : String(part))).join('.') || '(root)';
  return { issues: result.issues.map((issue) => `${path(issue)}: ${issue.message}`).join('; ') };
}

/** The server's tools the host can offer; the others are logged and left out. */
function usableTools(server: McpServerConfig, listed: readonly unknown[], warn: (line: string) => void): McpTool[] {
  const tools: McpTool[] = [];
  const seen = new Set<string>();
  for (const raw of listed) {
    const parsed = parseTool(normalised(raw));
    if ('issues' in parsed) {
      const name = typeof raw === 'object' && raw !== null && 'name' in raw ? JSON.stringify(raw.name) : '(no name)';
      warn(`tool ${name} left out: its definition is invalid (${parsed.issues})`);
      continue;
    }
    const tool = parsed.tool;
    if (seen.has(tool.name)) {
      warn(`tool ${JSON.stringify(tool.name)} left out: listed more than once (the first one is kept)`);
      continue;
    }
    seen.add(tool.name);
    if (!isToolAllowed(server.tools, tool.name)) continue;
    if (tool.execution?.taskSupport === 'required') {
      warn(`tool ${JSON.stringify(tool.name)} left out: it can only run as an MCP task, which this host does not support`);
      continue;
    }
    try {
      // Checked before names are assigned, so a tool left out does not push its neighbours' names around.
      toClaudeTool(tool, tool.name, server.name);
    } catch (err) {
      warn(`tool ${JSON.stringify(tool.name)} left out: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    tools.push(tool);
  }
  return tools;
}

/** One server's tools the host can offer (all pages, filtered, checked); rejects when it cannot be listed. */
export async function listServerTools(connections: McpConnections, server: McpServerConfig): Promise<McpTool[]> {
  const warn = (line: string): void => connections.log(`[mcp:${server.name}] warning: ${line}`);
  // A server backing off after a failed connect is skipped at once, and one still connecting is
  // waited for no longer than its timeoutMs (30 s at least), by one turn only: the others go on
  // without it until that connect ends.
  const listed = await connections.use(server.name, (client) => listPages(client, server), {
    failFastWhenDown: true,
    connectWaitMs: Math.max(MIN_LISTING_CONNECT_WAIT_MS, server.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS),
  });
  return usableTools(server, listed, warn);
}

async function build(connections: McpConnections): Promise<BuiltCatalog> {
  const servers = connections.list();
  const settled = await Promise.allSettled(servers.map((server) => listServerTools(connections, server)));
  const failures: string[] = [];
  const unavailable: UnavailableServer[] = [];
  const entries: Array<{ server: McpServerConfig; tool: McpTool }> = [];
  settled.forEach((outcome, i) => {
    const server = servers[i] as McpServerConfig;
    if (outcome.status === 'fulfilled') {
      for (const tool of outcome.value) entries.push({ server, tool });
      return;
    }
    const reason = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
    failures.push(`"${server.name}": ${reason}`);
    unavailable.push({ server: server.name, reason });
    connections.log(`[mcp:${server.name}] warning: its tools are left out of this turn's catalogue: ${reason}`);
  });
  if (servers.length > 0 && failures.length === servers.length) {
    throw new Error(`no MCP server could be listed: ${failures.join('; ')}`);
  }

  const names = assignClaudeToolNames(entries.map(({ server, tool }) => ({ server: server.name, name: tool.name })));
  const tools: Tool[] = [];
  // Pairs, not an object keyed by tool name: a server may name a tool `__proto__` (see ToolCatalog.routes).
  const routes: ToolRouteEntry[] = [];
  entries.forEach(({ server, tool }, i) => {
    const claudeName = names[i] ?? tool.name;
    const approval = toolApprovalMode(server, tool.name);
    tools.push(toClaudeTool(tool, claudeName, server.name));
    routes.push([
      claudeName,
      {
        server: server.name,
        name: tool.name,
        // A read-only tool is safe to repeat whatever its idempotentHint says (MCP: the hint only
        // means something for tools that are not read-only).
        idempotent: tool.annotations?.idempotentHint === true || tool.annotations?.readOnlyHint === true,
        timeoutMs: server.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
        // Only when not auto: catalogues of servers without approval settings keep their digest.
        ...(approval !== 'auto' ? { approval } : {}),
        // Only when fast, likewise: the workflow calls it as a local activity (src/workflows/activity-stubs.ts).
        ...(isFastTool(server, tool.name) ? { fast: true as const } : {}),
      },
    ]);
  });
  return { catalog: { digest: digestOf([tools, routes]), tools, routes }, complete: failures.length === 0, unavailable };
}

/**
 * Lists every server and builds the catalogue. Tools the host cannot offer and servers that cannot
 * be listed are left out with a warning in the worker log (see the module comment).
 * @throws Error when there are servers and none of them could be listed.
 */
export async function buildToolCatalog(connections: McpConnections): Promise<ToolCatalog> {
  return (await build(connections)).catalog;
}

/** {@link buildToolCatalog}, with the servers it left out and why (for `mcp-host tools`). */
export async function buildToolCatalogReport(connections: McpConnections): Promise<{ catalog: ToolCatalog; unavailable: UnavailableServer[] }> {
  const { catalog, unavailable } = await build(connections);
  return { catalog, unavailable };
}

/** A worker's catalogue, rebuilt only when a server's tool list may have changed. */
export class ToolCatalogCache {
  private cached: { generation: number; catalog: ToolCatalog } | undefined;
  /** One build at a time: conversations starting turns together share it. */
  private building: Promise<ToolCatalog> | undefined;

  constructor(private readonly connections: McpConnections) {}

  /** The current catalogue: cached while no tool list may have changed, else listed again. */
  async current(): Promise<ToolCatalog> {
    if (this.cached?.generation === this.connections.toolsGeneration()) return this.cached.catalog;
    this.building ??= this.rebuild().finally(() => {
      this.building = undefined;
    });
    return this.building;
  }

  private async rebuild(): Promise<ToolCatalog> {
    // Read before listing: a list_changed that arrives while listing makes the next call list again.
    const generation = this.connections.toolsGeneration();
    const { catalog, complete } = await build(this.connections);
    this.cached = complete ? { generation, catalog } : undefined;
    return catalog;
  }
}
