/**
 * One server's tool listing (S4): every `tools/list` page (following `nextCursor`), each tool
 * checked on its own, filtered by the server's allow/deny list, with how long the listing may be
 * reused. The tools' call-time definitions (`Mcp-Param-*` headers, `outputSchema`, task support)
 * are recorded in the pool's {@link ToolDefinitions} as a side effect, so a call knows them without
 * another listing. A task-only tool (`execution.taskSupport: "required"`) is offered like any
 * other: its calls run as MCP tasks (src/mcp/tasks).
 *
 * A tool the host cannot offer is logged as a warning naming the server and tool and left out, and
 * the rest of the listing stands: an invalid definition, an input schema Claude cannot take, a
 * duplicate name, and on a 2026-07-28 Streamable HTTP connection invalid `x-mcp-header` marks (the
 * spec's MUST, SEP-2243).
 */
import { MAX_CACHE_TTL_MS, specTypeSchemas, type Client, type Tool as McpTool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { toClaudeTool } from '../claude-tool';
import type { McpServerConfig } from '../config';
import { isToolAllowed } from '../is-tool-allowed';
import type { McpConnections } from '../mcp-connections';
import { taskSupportOf } from '../tasks/task-support';
import type { ToolDefinition } from './tool-definitions';
import { scanHeaderParams, type HeaderParam } from './x-mcp-header';

/** A bound on pages per server, so a server whose cursor never ends cannot hang the host. */
const MAX_PAGES = 1000;
/** Each `tools/list` page must come within this; listing is cheap, unlike some tool calls. */
const PAGE_TIMEOUT_MS = 30_000;

/** One server's listing: the tools the host can offer, in the server's order, and how long it holds. */
export interface ServerListing {
  tools: McpTool[];
  /**
   * How long (ms) the listing may be reused: the server's `ttlMs` (2026-07-28 caching; the
   * shortest of its pages), 0 for a 2026-07-28 server that sends none (the spec's default:
   * immediately stale). Undefined for a 2025 server without one: reused until the server says
   * `notifications/tools/list_changed` or its connection reopens.
   */
  ttlMs: number | undefined;
  /** The server declares resources (the host then offers Claude its resource tools). */
  resources?: boolean;
}

/** How to list. */
export interface ListServerOptions {
  /** Wait for a server still connecting no longer than this (ms); default: as long as connecting takes. */
  connectWaitMs?: number;
  /** A server backing off after a failed connect fails at once instead of being waited for. */
  failFastWhenDown?: boolean;
  /** Cancels the listing (a tool call's, when it lists first). */
  signal?: AbortSignal;
}

/**
 * A page as sent, before any tool is checked: one malformed tool must not make the whole page (and
 * so the whole server) unreadable, which the SDK's strict `listTools` would do.
 */
const PageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().nullish(), ttlMs: z.unknown().optional() });

/** The pages as sent, and what the connection is: the era and caching hints decide about the tools. */
interface Pages {
  tools: unknown[];
  /** The shortest valid `ttlMs` of the pages; undefined when none sent one. */
  ttlMs: number | undefined;
  modern: boolean;
}

function validTtl(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? Math.min(value, MAX_CACHE_TTL_MS) : undefined;
}

async function listPages(client: Client, server: McpServerConfig, signal: AbortSignal | undefined): Promise<Pages> {
  const tools: unknown[] = [];
  const cursors = new Set<string>();
  const modern = client.getProtocolEra() === 'modern';
  let ttlMs: number | undefined;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor !== undefined ? { cursor } : {} }, PageSchema, {
      timeout: PAGE_TIMEOUT_MS,
      ...(signal !== undefined ? { signal } : {}),
    });
    tools.push(...result.tools);
    // A 2026-07-28 page without a valid hint is immediately stale (the spec's default of 0).
    const pageTtl = validTtl(result.ttlMs) ?? (modern ? 0 : undefined);
    if (pageTtl !== undefined) ttlMs = Math.min(ttlMs ?? pageTtl, pageTtl);
    cursor = result.nextCursor ?? undefined;
    if (cursor === undefined) return { tools, ttlMs, modern };
    if (cursors.has(cursor)) throw new Error(`MCP server "${server.name}" sent the nextCursor ${JSON.stringify(cursor)} twice`);
    cursors.add(cursor);
  }
  throw new Error(`MCP server "${server.name}" kept returning nextCursor after ${MAX_PAGES} pages`);
}

/**
 * Forgives what does not matter to the catalogue: an input schema without `type` is an object
 * schema (Claude's tools are), and `outputSchema` is kept apart (only a call checks results
 * against it), so a malformed one does not cost the tool.
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

/** The tool's header parameters, or why the tool is left out (only a Streamable HTTP 2026 connection enforces the marks). */
function headerParamsOf(tool: McpTool, enforced: boolean): { params: readonly HeaderParam[] } | { problem: string } {
  const scan = scanHeaderParams(tool.inputSchema);
  if (scan.ok) return { params: scan.params };
  return enforced ? { problem: scan.problem } : { params: [] };
}

/** The server's tools the host can offer and their definitions; the others are logged and left out. */
function usableTools(server: McpServerConfig, pages: Pages, warn: (line: string) => void): { tools: McpTool[]; definitions: Map<string, ToolDefinition> } {
  const tools: McpTool[] = [];
  const definitions = new Map<string, ToolDefinition>();
  const seen = new Set<string>();
  const enforceHeaders = pages.modern && server.transport !== 'stdio';
  for (const raw of pages.tools) {
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
    const headers = headerParamsOf(tool, enforceHeaders);
    if ('problem' in headers) {
      warn(`tool ${JSON.stringify(tool.name)} left out: invalid x-mcp-header (${headers.problem})`);
      continue;
    }
    try {
      // Checked before names are assigned, so a tool left out does not push its neighbours' names around.
      toClaudeTool(tool, tool.name, server.name);
    } catch (err) {
      warn(`tool ${JSON.stringify(tool.name)} left out: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    const outputSchema = (raw as Record<string, unknown>).outputSchema;
    const taskSupport = taskSupportOf(raw);
    definitions.set(tool.name, {
      headerParams: headers.params,
      ...(outputSchema !== undefined ? { outputSchema } : {}),
      ...(taskSupport !== undefined ? { taskSupport } : {}),
    });
    tools.push(tool);
  }
  return { tools, definitions };
}

/**
 * Lists one server (see the module comment) and records its tools' definitions in the pool.
 * @throws when the server cannot be connected or listed.
 */
export async function listServer(connections: McpConnections, server: McpServerConfig, options: ListServerOptions = {}): Promise<ServerListing> {
  const warn = (line: string): void => connections.log(`[mcp:${server.name}] warning: ${line}`);
  const { signal, ...use } = options;
  const { pages, resources } = await connections.use(
    server.name,
    async (client) => ({ pages: await listPages(client, server, signal), resources: client.getServerCapabilities()?.resources !== undefined }),
    use,
  );
  const { tools, definitions } = usableTools(server, pages, warn);
  connections.toolDefinitions.record(server.name, definitions);
  return { tools, ttlMs: pages.ttlMs, ...(resources ? { resources: true } : {}) };
}
