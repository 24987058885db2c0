/**
 * Resources and prompts in `chat` (issue 28): `@server:uri` in a line attaches that resource to the
 * turn, `/prompt SERVER/NAME [KEY=VALUE…]` runs a server's prompt as the turn, and Tab completes an
 * `@` mention: server names, then the server's resource URIs and templates, then a template's
 * variable from the server's `completion/complete` where it offers it. The chat keeps one set of
 * connections to the servers of MCP_CONFIG for the session (opened on first use).
 */
import type { Completer } from 'node:readline';
import { loadMcpConfig } from '../mcp/config';
import { McpConnections } from '../mcp/mcp-connections';
import { completeArgument, listResources, type ServerResources } from '../mcp/resources/server-resources';
import type { TurnContent } from '../conversation/turn-content';
import { turnContentFrom } from './resources';

/** A line's `@server:uri` mentions taken out, and the text that is left. */
export function splitMentions(line: string): { text: string; attach: string[] } {
  const attach: string[] = [];
  const text = line
    .split(/(\s+)/)
    .filter((word) => {
      if (/^@[^\s:/@]+:[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(word)) {
        attach.push(word.slice(1));
        return false;
      }
      return true;
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return { text, attach };
}

/** `/prompt SERVER/NAME [KEY=VALUE…]` → the prompt and its arguments; undefined for any other line. */
export function parsePromptLine(line: string): { prompt: string; args: string[] } | undefined {
  const words = line.trim().split(/\s+/);
  if (words[0] !== '/prompt') return undefined;
  const [prompt, ...args] = words.slice(1);
  if (prompt === undefined) throw new Error('usage: /prompt SERVER/NAME [KEY=VALUE…]');
  return { prompt, args };
}

/** The servers of MCP_CONFIG as the chat uses them. */
export class ChatServers {
  private connections: Promise<McpConnections> | undefined;
  private listing: Promise<ServerResources[]> | undefined;

  constructor(private readonly configPath: string) {}

  private open(): Promise<McpConnections> {
    this.connections ??= loadMcpConfig(this.configPath).then((servers) => new McpConnections(servers, () => undefined));
    return this.connections;
  }

  /** The turn's content for a line: its `@` mentions, or its `/prompt`; undefined when it has neither. */
  async turnOf(line: string): Promise<{ text: string; content?: TurnContent }> {
    const prompt = parsePromptLine(line);
    if (prompt !== undefined) {
      const content = await turnContentFrom(await this.open(), { prompt: prompt.prompt, args: prompt.args });
      return { text: '', ...(content !== undefined ? { content } : {}) };
    }
    const { text, attach } = splitMentions(line);
    if (attach.length === 0) return { text: line };
    const content = await turnContentFrom(await this.open(), { attach });
    return { text, ...(content !== undefined ? { content } : {}) };
  }

  /** Every server's resources, listed once per session for completion (`/resources` lists again). */
  resources(fresh = false): Promise<ServerResources[]> {
    if (fresh || this.listing === undefined) {
      this.listing = this.open()
        .then((connections) => listResources(connections))
        .then((listed) => listed.listed);
      // A failed listing is tried again on the next Tab.
      this.listing.catch(() => (this.listing = undefined));
    }
    return this.listing;
  }

  /** Readline's completer: completes the `@` mention at the end of the line. */
  completer(): Completer {
    return ((line: string, callback: (err: Error | null, result: [string[], string]) => void) => {
      const mention = /@(\S*)$/.exec(line)?.[1];
      if (mention === undefined) return callback(null, [[], line]);
      this.complete(mention).then(
        (hits) => callback(null, [hits.map((hit) => `@${hit}`), `@${mention}`]),
        () => callback(null, [[], line]),
      );
    }) as unknown as Completer;
  }

  private async complete(mention: string): Promise<string[]> {
    const listed = await this.resources();
    const colon = mention.indexOf(':');
    if (colon < 0) return listed.map((s) => `${s.server}:`).filter((s) => s.startsWith(mention));
    const server = mention.slice(0, colon);
    const typed = mention.slice(colon + 1);
    const entry = listed.find((s) => s.server === server);
    if (entry === undefined) return [];
    const uris = entry.resources.map((r) => r.uri).filter((uri) => uri.startsWith(typed));
    // A template whose fixed head is typed: its variable completed by the server.
    for (const template of entry.templates) {
      const head = template.uriTemplate.split('{')[0] ?? '';
      const variable = /\{([^}]+)\}/.exec(template.uriTemplate)?.[1];
      if (variable === undefined || !typed.startsWith(head) || head === '') continue;
      const values = await completeArgument(await this.open(), server, { type: 'ref/resource', uri: template.uriTemplate }, { name: variable, value: typed.slice(head.length) }).catch(() => []);
      uris.push(...values.map((value) => template.uriTemplate.replace(`{${variable}}`, value)));
    }
    return [...new Set(uris)].map((uri) => `${server}:${uri}`);
  }

  /** Closes the session's connections. */
  async close(): Promise<void> {
    const connections = await this.connections?.catch(() => undefined);
    await connections?.closeAll();
  }
}
