/**
 * MCP resources and prompts for the person at the keyboard (issue 28): `mcp-host resources`, `read`
 * and `prompts`, and what `--attach SERVER:URI` and `--prompt SERVER/NAME --arg k=v` put into a turn.
 * Like `mcp-host tools`, these connect to the servers of the `mcp.json` at hand (MCP_CONFIG) the way
 * a worker does, and close again. A turn's attachments and prompt are read here, before anything is
 * sent: a bad reference is refused in one line and nothing reaches the conversation; what is sent is
 * the content in Claude's form (src/conversation/turn-content.ts).
 */
import { loadMcpConfig } from '../mcp/config';
import { McpConnections } from '../mcp/mcp-connections';
import { promptMessages } from '../mcp/resources/prompt-messages';
import { parsePromptReference, parseResourceReference } from '../mcp/resources/resource-reference';
import { resourceBlocks } from '../mcp/resources/resource-blocks';
import { MAX_TOOL_RESULT_CHARS } from '../mcp/tool-result';
import {
  getServerPrompt,
  listPrompts,
  listResources,
  readServerResource,
  type ServerPrompts,
  type ServerResources,
  type UnlistedServer,
} from '../mcp/resources/server-resources';
import type { TurnAttachment, TurnContent, TurnPrompt } from '../conversation/turn-content';

export type { ServerPrompts, ServerResources, UnlistedServer };

/** The cap on one attached resource, in characters of text and base64: the cap of a tool result. */
export const MAX_ATTACHMENT_CHARS = MAX_TOOL_RESULT_CHARS;

/** Runs `body` over connections to the servers of the `mcp.json` at `configPath`, closed after. */
async function withServers<T>(configPath: string, body: (connections: McpConnections) => Promise<T>, log: (line: string) => void = () => undefined): Promise<T> {
  const connections = new McpConnections(await loadMcpConfig(configPath), log);
  try {
    return await body(connections);
  } finally {
    await connections.closeAll();
  }
}

/** `mcp-host resources [SERVER]`: every page of the resources and templates of one server, or of every server that has some. */
export function resourceListing(configPath: string, server?: string): Promise<{ listed: ServerResources[]; unlisted: UnlistedServer[] }> {
  return withServers(configPath, (connections) => listResources(connections, server));
}

/** `mcp-host read SERVER URI`: the resource's contents as the server sent them. */
export function readResource(configPath: string, server: string, uri: string): Promise<unknown[]> {
  return withServers(configPath, (connections) => readServerResource(connections, server, uri));
}

/** `mcp-host prompts`: every server's prompts with their arguments. */
export function promptListing(configPath: string): Promise<{ listed: ServerPrompts[]; unlisted: UnlistedServer[] }> {
  return withServers(configPath, (connections) => listPrompts(connections));
}

/** What a turn asks for: `SERVER:URI` references to attach, and a prompt with its `KEY=VALUE` arguments. */
export interface TurnContentRequest {
  attach?: readonly string[];
  prompt?: string;
  args?: readonly string[];
}

async function attachment(connections: McpConnections, reference: string): Promise<TurnAttachment> {
  const { server, uri } = parseResourceReference(reference);
  const contents = await readServerResource(connections, server, uri);
  const { blocks, truncatedChars } = resourceBlocks(contents, MAX_ATTACHMENT_CHARS);
  if (truncatedChars > 0) {
    throw new Error(`resource ${uri} of MCP server "${server}" is larger than an attachment may be (${MAX_ATTACHMENT_CHARS} characters of text or base64, as a tool result; ${truncatedChars} over): let Claude read the part it needs with its resource tool instead`);
  }
  return { server, uri, blocks };
}

async function prompt(connections: McpConnections, reference: string, args: readonly string[]): Promise<TurnPrompt> {
  const parsed = parsePromptReference(reference, args);
  const got = await getServerPrompt(connections, parsed.server, parsed.name, parsed.arguments);
  let messages;
  try {
    messages = promptMessages(got.messages);
  } catch (err) {
    throw new Error(`prompt "${parsed.server}/${parsed.name}": ${err instanceof Error ? err.message : String(err)}`);
  }
  return { server: parsed.server, name: parsed.name, messages };
}

/**
 * Reads what a turn attaches and the prompt it runs, from the servers of `configPath`, into the
 * turn's content; undefined when it asks for neither. Throws one clear error for an unknown server,
 * URI or prompt, a missing or unknown prompt argument, or a resource over the cap.
 */
export async function readTurnContent(configPath: string, request: TurnContentRequest): Promise<TurnContent | undefined> {
  if (!asksForContent(request)) return undefined;
  return withServers(configPath, (connections) => turnContentFrom(connections, request));
}

/** Whether `request` asks for anything; a malformed reference or an `--arg` without a prompt throws before any server is asked. */
function asksForContent(request: TurnContentRequest): boolean {
  const references = request.attach ?? [];
  if (references.length === 0 && request.prompt === undefined) {
    if ((request.args?.length ?? 0) > 0) throw new Error('--arg goes with --prompt SERVER/NAME');
    return false;
  }
  references.forEach((reference) => parseResourceReference(reference));
  if (request.prompt !== undefined) parsePromptReference(request.prompt, request.args ?? []);
  return true;
}

/** {@link readTurnContent} over connections already open (`chat` keeps them for the session). */
export async function turnContentFrom(connections: McpConnections, request: TurnContentRequest): Promise<TurnContent | undefined> {
  if (!asksForContent(request)) return undefined;
  const attachments: TurnAttachment[] = [];
  for (const reference of request.attach ?? []) attachments.push(await attachment(connections, reference));
  const run = request.prompt !== undefined ? await prompt(connections, request.prompt, request.args ?? []) : undefined;
  return { ...(attachments.length > 0 ? { attachments } : {}), ...(run !== undefined ? { prompt: run } : {}) };
}

/** `mcp-host resources` as text: one block per server, a line per resource and template. */
export function renderResources(listing: { listed: ServerResources[] }): string {
  if (listing.listed.length === 0) return '(no server offers resources)';
  return listing.listed
    .map(({ server, resources, templates }) => {
      const rows = resources.map((r) => `  ${r.uri}  ${r.name}${r.mimeType !== undefined ? ` (${r.mimeType})` : ''}${r.description ? ` — ${r.description}` : ''}`);
      const patterns = templates.map((t) => `  ${t.uriTemplate}  ${t.name} [template]${t.description ? ` — ${t.description}` : ''}`);
      return [`${server}: ${resources.length} resource(s)${templates.length > 0 ? `, ${templates.length} template(s)` : ''}`, ...rows, ...patterns].join('\n');
    })
    .join('\n');
}

/** `mcp-host prompts` as text: a line per prompt with its arguments (`name*` is required). */
export function renderPrompts(listing: { listed: ServerPrompts[] }): string {
  if (listing.listed.length === 0) return '(no server offers prompts)';
  return listing.listed
    .flatMap(({ server, prompts }) =>
      prompts.map((p) => {
        const args = (p.arguments ?? []).map((a) => `${a.name}${a.required === true ? '*' : ''}`).join(' ');
        return `${server}/${p.name}${args !== '' ? ` ${args}` : ''}${p.description ? ` — ${p.description}` : ''}`;
      }),
    )
    .join('\n');
}

/** `mcp-host read` as text: each content's text as it is; a binary one as a line saying what it is. */
export function renderResourceContents(contents: readonly unknown[]): string {
  return contents
    .map((raw) => {
      const content = (typeof raw === 'object' && raw !== null ? raw : {}) as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
      if (typeof content.text === 'string') return content.text;
      const bytes = typeof content.blob === 'string' ? Math.floor((content.blob.replace(/=+$/, '').length * 3) / 4) : 0;
      return `[${String(content.uri)}: ${typeof content.mimeType === 'string' ? content.mimeType : 'binary'}, ${bytes} bytes; --json prints it as base64]`;
    })
    .join('\n');
}
