/**
 * The merged tool catalogue of every configured server (S4, S5): each server's listing
 * (`tools/server-listing.ts`: all pages, filtered, checked), named for Claude, with the route back
 * to the exact MCP tool, in a stable order. Kept per worker until a tool list may have changed or
 * a server's listing expires (`ttlMs`, MCP 2026-07-28).
 *
 * A server that cannot be listed (down, handshake failed, bad pages) is left out of this catalogue
 * with a warning naming it, and is listed again by the next turn; only when every server fails does
 * listing fail (and Temporal retry it).
 */
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { digestOf } from '../conversation/digest';
import type { Tool, ToolCatalog, ToolRouteEntry } from '../conversation/types';
import { toClaudeTool } from './claude-tool';
import type { McpServerConfig } from './config';
import type { McpConnections } from './mcp-connections';
import { assignClaudeToolNames } from './tool-names';
import { toolApprovalMode } from '../approval/approval-mode';
import { routeInputPolicies } from '../input/server-input-policy';
import { isFastTool } from './fast-tools';
import { toolLoading } from './tool-loading';
import { listServer, type ServerListing } from './tools/server-listing';
import { hostResourceTools } from './resources/host-resource-tools';

/** A server's call timeout when its config names none. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/**
 * The shortest wait of a turn's listing for a server still connecting: starting a process (node,
 * tsx, python, npx) takes seconds by itself, more on a loaded machine.
 */
export const MIN_LISTING_CONNECT_WAIT_MS = 30_000;

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

/**
 * How long a turn's listing waits for a server still connecting: its timeoutMs, 30 s at least (the
 * CLI's views wait as long).
 */
export function listingConnectWaitMs(server: McpServerConfig): number {
  return Math.max(MIN_LISTING_CONNECT_WAIT_MS, server.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS);
}

/** Lists one server for a catalogue; a cache may answer from an earlier listing. */
type ListOne = (server: McpServerConfig) => Promise<ServerListing>;

/**
 * Lists one server as a turn does: a server backing off after a failed connect is skipped at once,
 * and one still connecting is waited for no longer than its timeoutMs (30 s at least), by one turn
 * only: the others go on without it until that connect ends.
 */
function listForTurn(connections: McpConnections, server: McpServerConfig): Promise<ServerListing> {
  return listServer(connections, server, { failFastWhenDown: true, connectWaitMs: listingConnectWaitMs(server) });
}

/** One server's tools the host can offer (all pages, filtered, checked); rejects when it cannot be listed. */
export async function listServerTools(connections: McpConnections, server: McpServerConfig): Promise<McpTool[]> {
  return (await listForTurn(connections, server)).tools;
}

/** Code-unit order: the same on every machine and locale. */
function byName(a: McpTool, b: McpTool): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function build(connections: McpConnections, list: ListOne): Promise<BuiltCatalog> {
  const servers = connections.list();
  const settled = await Promise.allSettled(servers.map((server) => list(server)));
  const failures: string[] = [];
  const unavailable: UnavailableServer[] = [];
  const entries: Array<{ server: McpServerConfig; tool: McpTool }> = [];
  const withResources: string[] = [];
  settled.forEach((outcome, i) => {
    const server = servers[i] as McpServerConfig;
    if (outcome.status === 'fulfilled') {
      if (outcome.value.resources === true) withResources.push(server.name);
      // A stable order, so the tools Claude is sent (the head of its prompt cache) and the
      // catalogue's digest only change when the tools do: servers in config order (the user's,
      // unchanged between listings), each server's tools by name, whatever order the server lists
      // them in (the spec only says it SHOULD be deterministic, and paging or a hash map can shuffle it).
      for (const tool of [...outcome.value.tools].sort(byName)) entries.push({ server, tool });
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
    const loading = toolLoading(server, tool.name);
    const claudeTool = toClaudeTool(tool, claudeName, server.name);
    // Only when the server's config says: catalogues of servers without it keep their digest.
    tools.push(loading !== undefined ? { ...claudeTool, defer_loading: loading } : claudeTool);
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
        // The server's elicitation and sampling policies, likewise only when not `ask`.
        ...routeInputPolicies(server),
      },
    ]);
  });
  // The host's resource tools for Claude, after the servers' tools (a catalogue without resources is unchanged).
  for (const { tool, route } of hostResourceTools(withResources, new Set(tools.map((t) => t.name)), DEFAULT_TOOL_TIMEOUT_MS)) {
    tools.push(tool);
    routes.push([tool.name, route]);
  }
  return { catalog: { digest: digestOf([tools, routes]), tools, routes }, complete: failures.length === 0, unavailable };
}

/**
 * Lists every server and builds the catalogue. Tools the host cannot offer and servers that cannot
 * be listed are left out with a warning in the worker log (see the module comment).
 * @throws Error when there are servers and none of them could be listed.
 */
export async function buildToolCatalog(connections: McpConnections): Promise<ToolCatalog> {
  return (await buildToolCatalogReport(connections)).catalog;
}

/** {@link buildToolCatalog}, with the servers it left out and why (for `mcp-host tools`). */
export async function buildToolCatalogReport(connections: McpConnections): Promise<{ catalog: ToolCatalog; unavailable: UnavailableServer[] }> {
  const { catalog, unavailable } = await build(connections, (server) => listForTurn(connections, server));
  return { catalog, unavailable };
}

/** A server's listing as the cache holds it. */
interface HeldListing {
  listing: ServerListing;
  /** The pool's tools generation when it was listed. */
  generation: number;
  /** When it goes stale (ms since the epoch); undefined: not before the generation changes. */
  expiresAt: number | undefined;
}

/**
 * A worker's catalogue, listed again only when a server's tool list may have changed (a
 * `notifications/tools/list_changed`, a reconnect: the pool's tools generation) or a server's
 * listing has expired (its `ttlMs`, MCP 2026-07-28 caching). Servers are held one by one: an
 * expired or failed one is listed again, the others' listings are reused, and the catalogue is
 * merged anew from them (the same tools give the same digest).
 */
export class ToolCatalogCache {
  private cached: { generation: number; expiresAt: number | undefined; catalog: ToolCatalog } | undefined;
  private readonly listings = new Map<string, HeldListing>();
  /** One build at a time: conversations starting turns together share it. */
  private building: Promise<ToolCatalog> | undefined;

  /**
   * @param connections The worker's pool.
   * @param now The clock listings expire by (tests give their own).
   */
  constructor(
    private readonly connections: McpConnections,
    private readonly now: () => number = Date.now,
  ) {}

  /** The current catalogue: cached while no listing in it may be stale, else merged from fresh ones. */
  async current(): Promise<ToolCatalog> {
    const cached = this.cached;
    if (cached !== undefined && cached.generation === this.connections.toolsGeneration() && this.fresh(cached.expiresAt)) return cached.catalog;
    this.building ??= this.rebuild().finally(() => {
      this.building = undefined;
    });
    return this.building;
  }

  private fresh(expiresAt: number | undefined): boolean {
    return expiresAt === undefined || expiresAt > this.now();
  }

  private async rebuild(): Promise<ToolCatalog> {
    // Read before listing: a list_changed that arrives while listing makes the next call list again.
    const generation = this.connections.toolsGeneration();
    const used: HeldListing[] = [];
    const { catalog, complete } = await build(this.connections, async (server) => {
      const held = await this.listing(server, generation);
      used.push(held);
      return held.listing;
    });
    const expiries = used.flatMap((held) => (held.expiresAt !== undefined ? [held.expiresAt] : []));
    const expiresAt = expiries.length > 0 ? Math.min(...expiries) : undefined;
    // A catalogue missing a server is not kept: the next turn tries that server again.
    this.cached = complete ? { generation, expiresAt, catalog } : undefined;
    return catalog;
  }

  private async listing(server: McpServerConfig, generation: number): Promise<HeldListing> {
    const held = this.listings.get(server.name);
    if (held !== undefined && held.generation === generation && this.fresh(held.expiresAt)) return held;
    this.listings.delete(server.name);
    const listing = await listForTurn(this.connections, server);
    const fresh: HeldListing = { listing, generation, expiresAt: listing.ttlMs === undefined ? undefined : this.now() + listing.ttlMs };
    this.listings.set(server.name, fresh);
    return fresh;
  }
}
