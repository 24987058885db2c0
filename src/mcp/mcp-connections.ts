/**
 * One long-lived MCP connection per configured server per worker process, shared by every
 * conversation. Connections open lazily, are dropped when their transport closes (a dead stdio
 * process, a dropped HTTP session) and reopen on next use; `closeAll` leaves no child process.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { HostError } from '../activities/host-error';
import type { McpServerConfig } from './config';
import { openClient, type Log } from './open-transport';

/** The pool of MCP clients of one worker. */
export class McpConnections {
  private readonly servers: Map<string, McpServerConfig>;
  private readonly open = new Map<string, Promise<Client>>();
  private closed = false;
  private generation = 0;

  constructor(
    servers: readonly McpServerConfig[],
    private readonly log: Log = (line) => process.stderr.write(`${line}\n`),
  ) {
    this.servers = new Map(servers.map((server) => [server.name, server]));
  }

  /** The configured servers, in config order. */
  list(): McpServerConfig[] {
    return [...this.servers.values()];
  }

  /** One server's config; an unknown name is a non-retryable host error. */
  server(name: string): McpServerConfig {
    const server = this.servers.get(name);
    if (!server) throw new HostError(`no MCP server named "${name}" is configured in this worker`, 'mcp.unknown_server', false);
    return server;
  }

  /** A connected client for `name`, opening (or reopening) the connection when needed. */
  async client(name: string): Promise<Client> {
    if (this.closed) throw new HostError('the worker is shutting down', 'mcp.shutting_down', true);
    const existing = this.open.get(name);
    if (existing) return existing;
    const server = this.server(name);
    const opening = openClient(server, this.log).then(
      (client) => {
        client.onclose = () => {
          if (this.open.get(name) === opening) this.open.delete(name);
          if (!this.closed) this.log(`[mcp:${name}] connection closed; it reopens on next use`);
        };
        // S4/list_changed: the catalogue is listed again at the start of the next turn.
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          this.generation += 1;
        });
        this.generation += 1;
        return client;
      },
      (err: unknown) => {
        this.open.delete(name);
        throw new HostError(
          `cannot connect to MCP server "${name}": ${err instanceof Error ? err.message : String(err)}`,
          'mcp.connect_failed',
          true,
        );
      },
    );
    this.open.set(name, opening);
    return opening;
  }

  /** Drops a connection that failed at the transport level, so the next use reconnects. */
  async reset(name: string): Promise<void> {
    const opening = this.open.get(name);
    this.open.delete(name);
    if (!opening) return;
    await opening.then((client) => client.close()).catch(() => undefined);
  }

  /**
   * Grows whenever a tool list may have changed: a server sent `notifications/tools/list_changed`,
   * or a connection was (re)opened. A cached catalogue is valid while this stays the same.
   */
  toolsGeneration(): number {
    return this.generation;
  }

  /** Closes every connection (stdio children are terminated by their transports). */
  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((opening) => opening.then((client) => client.close()).catch(() => undefined)));
  }
}
