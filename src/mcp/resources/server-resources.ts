/**
 * Resources and prompts of the configured servers (issue 28), over the same pool of connections as
 * the tools: listing (every page), reading one resource, listing prompts and getting one with its
 * arguments checked first. Used by the `mcp-host resources`, `read` and `prompts` verbs, by
 * `--attach` and `--prompt`, and by the host's resource tools for Claude (the `useResources`
 * activity).
 *
 * Listings are not kept: each one asks the servers, so a resource a server added (and announced with
 * `notifications/resources/list_changed`) is in the next listing. The SDK's response cache serves a
 * listing again only while the server's own `ttlMs` says it is fresh, and drops it on `list_changed`.
 *
 * Errors are `HostError`s naming the server and what was asked, non-retryable where asking again
 * cannot help (an unknown server, URI or prompt, a missing argument); transport failures pass
 * through for the callers' classification.
 */
import { ProtocolError, type Client, type Prompt, type Resource, type ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import { HostError } from '../../errors/host-error';
import type { McpConnections } from '../mcp-connections';

/** A bound on pages per listing, so a server whose cursor never ends cannot hang the host. */
const MAX_PAGES = 100;
/** Each request must come within this. */
const REQUEST_TIMEOUT_MS = 30_000;

/** One server's resources and resource templates. */
export interface ServerResources {
  server: string;
  resources: Resource[];
  templates: ResourceTemplate[];
}

/** One server's prompts. */
export interface ServerPrompts {
  server: string;
  prompts: Prompt[];
}

/** A server that could not be listed, and why. */
export interface UnlistedServer {
  server: string;
  reason: string;
}

/** Every page of a listing, following `nextCursor`. */
async function allPages<T>(server: string, page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const result = await page(cursor);
    items.push(...result.items);
    cursor = result.nextCursor ?? undefined;
    if (cursor === undefined) return items;
    if (seen.has(cursor)) throw new Error(`MCP server "${server}" sent the nextCursor ${JSON.stringify(cursor)} twice`);
    seen.add(cursor);
  }
  throw new Error(`MCP server "${server}" kept returning nextCursor after ${MAX_PAGES} pages`);
}

const options = { timeout: REQUEST_TIMEOUT_MS };

/** Whether the connected server declares the capability. */
function offers(client: Client, capability: 'resources' | 'prompts' | 'completions'): boolean {
  return client.getServerCapabilities()?.[capability] !== undefined;
}

/** The configured server `name`; one clear error naming the servers there are. */
function knownServer(connections: McpConnections, name: string): void {
  if (connections.list().some((server) => server.name === name)) return;
  const names = connections.list().map((server) => server.name);
  throw new HostError(`no MCP server named "${name}" in mcp.json (servers: ${names.join(', ') || 'none'})`, 'mcp.unknown_server', false);
}

/** One server's resources and templates (an empty listing when it offers none). */
export async function listServerResources(connections: McpConnections, server: string): Promise<ServerResources> {
  knownServer(connections, server);
  return connections.use(server, async (client) => {
    if (!offers(client, 'resources')) return { server, resources: [], templates: [] };
    const resources = await allPages(server, async (cursor) => {
      const page = await client.listResources(cursor !== undefined ? { cursor } : {}, options);
      return { items: page.resources, nextCursor: page.nextCursor };
    });
    const templates = await allPages(server, async (cursor) => {
      const page = await client.listResourceTemplates(cursor !== undefined ? { cursor } : {}, options).catch((err: unknown) => {
        // Templates are optional within the capability: a server without them answers -32601.
        if (err instanceof ProtocolError && err.code === -32601) return { resourceTemplates: [], nextCursor: undefined };
        throw err;
      });
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
    return { server, resources, templates };
  });
}

/** The resources of `server`, or of every server that offers some, with those that could not be listed. */
export async function listResources(connections: McpConnections, server?: string): Promise<{ listed: ServerResources[]; unlisted: UnlistedServer[] }> {
  const names = server !== undefined ? [server] : connections.list().map((s) => s.name);
  if (server !== undefined) knownServer(connections, server);
  const settled = await Promise.allSettled(names.map((name) => listServerResources(connections, name)));
  const listed: ServerResources[] = [];
  const unlisted: UnlistedServer[] = [];
  settled.forEach((outcome, i) => {
    const name = names[i] as string;
    if (outcome.status === 'fulfilled') {
      if (server !== undefined || outcome.value.resources.length > 0 || outcome.value.templates.length > 0) listed.push(outcome.value);
    } else {
      unlisted.push({ server: name, reason: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason) });
    }
  });
  if (server !== undefined && unlisted.length > 0) throw new Error(`MCP server "${server}" could not be listed: ${unlisted[0]?.reason}`);
  return { listed, unlisted };
}

/** What a server's JSON-RPC error about `what` means to the user, as a host error. */
function refused(server: string, what: string, err: unknown): unknown {
  if (!(err instanceof ProtocolError)) return err;
  const message = err.message.replace(/^MCP error -?\d+:\s*/, '');
  return new HostError(`MCP server "${server}" refused ${what}: ${message}`, err.code === -32602 ? 'mcp.invalid_params' : 'mcp.jsonrpc_error', false);
}

/** The `contents` of resource `uri` of `server` (as sent: the caller converts them). */
export async function readServerResource(connections: McpConnections, server: string, uri: string): Promise<unknown[]> {
  knownServer(connections, server);
  return connections.use(server, async (client) => {
    if (!offers(client, 'resources')) throw new HostError(`MCP server "${server}" offers no resources`, 'mcp.method_not_found', false);
    try {
      const result = await client.readResource({ uri }, options);
      return result.contents;
    } catch (err) {
      throw refused(server, `to read ${uri}`, err);
    }
  });
}

/** Every server's prompts (servers that offer none are left out), with those that could not be listed. */
export async function listPrompts(connections: McpConnections): Promise<{ listed: ServerPrompts[]; unlisted: UnlistedServer[] }> {
  const names = connections.list().map((s) => s.name);
  const settled = await Promise.allSettled(names.map((name) => serverPrompts(connections, name)));
  const listed: ServerPrompts[] = [];
  const unlisted: UnlistedServer[] = [];
  settled.forEach((outcome, i) => {
    const name = names[i] as string;
    if (outcome.status === 'rejected') unlisted.push({ server: name, reason: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason) });
    else if (outcome.value.length > 0) listed.push({ server: name, prompts: outcome.value });
  });
  return { listed, unlisted };
}

async function serverPrompts(connections: McpConnections, server: string): Promise<Prompt[]> {
  return connections.use(server, async (client) => {
    if (!offers(client, 'prompts')) return [];
    return allPages(server, async (cursor) => {
      const page = await client.listPrompts(cursor !== undefined ? { cursor } : {}, options);
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
  });
}

/**
 * Prompt `name` of `server` with `args`, as the server renders it: its messages as sent. The prompt
 * is looked up first, so an unknown name, an unknown argument or a missing required one gets the
 * host's clear error rather than whatever the server says.
 */
export async function getServerPrompt(connections: McpConnections, server: string, name: string, args: Record<string, string>): Promise<{ description?: string; messages: unknown[] }> {
  knownServer(connections, server);
  const prompts = await serverPrompts(connections, server);
  const prompt = prompts.find((p) => p.name === name);
  if (prompt === undefined) {
    const names = prompts.map((p) => p.name);
    throw new HostError(`MCP server "${server}" has no prompt "${name}" (its prompts: ${names.join(', ') || 'none'})`, 'mcp.invalid_params', false);
  }
  const declared = prompt.arguments ?? [];
  const missing = declared.filter((arg) => arg.required === true && !Object.hasOwn(args, arg.name)).map((arg) => arg.name);
  if (missing.length > 0) {
    throw new HostError(`prompt "${server}/${name}" needs ${missing.map((m) => `--arg ${m}=…`).join(', ')}`, 'mcp.invalid_params', false);
  }
  const unknown = Object.keys(args).filter((key) => !declared.some((arg) => arg.name === key));
  if (unknown.length > 0) {
    throw new HostError(`prompt "${server}/${name}" takes no argument ${unknown.map((u) => `"${u}"`).join(', ')} (it takes: ${declared.map((a) => a.name).join(', ') || 'none'})`, 'mcp.invalid_params', false);
  }
  return connections.use(server, async (client) => {
    try {
      const result = await client.getPrompt({ name, arguments: args }, options);
      return { ...(result.description !== undefined ? { description: result.description } : {}), messages: result.messages };
    } catch (err) {
      throw refused(server, `prompt "${name}"`, err);
    }
  });
}

/**
 * Completions the server offers for an argument (`completion/complete`): of a prompt's argument, or of
 * a resource template's variable. Empty when the server offers none.
 */
export async function completeArgument(
  connections: McpConnections,
  server: string,
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  argument: { name: string; value: string },
): Promise<string[]> {
  knownServer(connections, server);
  return connections.use(server, async (client) => {
    if (!offers(client, 'completions')) return [];
    const result = await client.complete({ ref, argument }, options);
    return result.completion.values;
  });
}
