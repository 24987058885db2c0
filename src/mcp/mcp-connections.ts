/**
 * One long-lived MCP connection per configured server per worker process, shared by every
 * conversation. Connections open lazily; one that fails at the transport level (a dead stdio
 * process, a dropped socket, an expired HTTP session) is dropped and reopens on next use; one left
 * idle may be closed (`idleCloseMs`); `closeAll` resolves only when no server process is left.
 */
import type { Client } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error';
import { redactSecrets } from '../errors/redact-secrets';
import type { McpServerConfig } from './config';
import { serverSecrets } from './config/server-secrets';
import { isTransportFailure } from './is-transport-failure';
import type { HostOAuthOptions } from './oauth/oauth-transport';
import { openClient, type Log, type OpenedConnection } from './transport/open-client';
import { ToolDefinitions } from './tools/tool-definitions';
import { processEraMemory, type EraMemory } from './transport/era-memory';
import type { NegotiatedProtocol } from './transport/negotiation';
import { isChildAlive } from './wait-for-child-exit';

/** Options of the pool. */
export interface McpConnectionsOptions {
  /**
   * Close a connection that has had no request for this long (ms); it reopens on next use. Unset or
   * 0: connections stay open until the worker stops (servers may keep state per connection).
   */
  idleCloseMs?: number;
  /** OAuth for Streamable HTTP servers: the token store and who can authorize (default: the worker's store, headless). */
  oauth?: HostOAuthOptions;
  /**
   * After a server fails to connect, listing its tools skips it for this long (ms), doubling with
   * each failure in a row up to {@link MAX_CONNECT_BACKOFF_MS}: the turns right after do not wait
   * for it again. Default {@link DEFAULT_CONNECT_BACKOFF_MS}.
   */
  connectBackoffMs?: number;
  /** Where the servers' eras are remembered between connections (default: the process's). */
  eras?: EraMemory;
}

/** The first back-off after a failed connect. */
export const DEFAULT_CONNECT_BACKOFF_MS = 5000;
/** The longest back-off after failed connects. */
export const MAX_CONNECT_BACKOFF_MS = 60_000;

/** Options of one use of a server's connection. */
export interface UseOptions {
  /**
   * While the server backs off after a failed connect, fail at once (`mcp.connect_failed`) instead
   * of connecting: for listing, which must not hold up a turn. A tool call leaves it unset: the
   * model asked for that server, so it tries.
   */
  failFastWhenDown?: boolean;
  /**
   * How long to wait for the connection when it is not open yet (ms): past it, this use fails
   * (`mcp.connect_failed`, retryable: nothing was sent) while connecting goes on in the background,
   * bounded by the handshake's own timeout, so a later use finds it open. Unset: as long as that takes.
   */
  connectWaitMs?: number;
}

/** A server's failed connects in a row, and until when listing skips it. */
interface ConnectFailures {
  count: number;
  until: number;
  message: string;
}

/** One server's connection as the pool tracks it. */
interface Entry {
  opening: Promise<OpenedConnection>;
  /** A use that fails fast (listing) already waited its `connectWaitMs` for this connect in vain. */
  waitedInVain?: boolean;
  opened?: OpenedConnection;
  inFlight: number;
  lastUsed: number;
}

/** The pool of MCP clients of one worker. */
export class McpConnections {
  private readonly servers: Map<string, McpServerConfig>;
  private readonly entries = new Map<string, Entry>();
  /** Connections being closed in the background; `closeAll` waits for them too. */
  private readonly closing = new Set<Promise<void>>();
  /** Servers that have had a connection before: reopening one may find a different tool list. */
  private readonly openedBefore = new Set<string>();
  private readonly idleTimer: NodeJS.Timeout | undefined;
  private readonly oauth: HostOAuthOptions | undefined;
  /** Every server's secret values (`serverSecrets`): no log line carries one. */
  private readonly secrets: readonly string[];
  private readonly connectBackoffMs: number;
  private readonly connectFailures = new Map<string, ConnectFailures>();
  private readonly eras: EraMemory;
  private closed = false;
  private generation = 0;
  /**
   * Where the MCP layer's lines go (server stderr, transport errors, connection events, catalogue
   * warnings), prefixed `[mcp:<name>]`, each one redacted first (see {@link redact}).
   */
  readonly log: Log;
  /**
   * The tools each server last listed, as far as calling them is concerned (`Mcp-Param-*` headers,
   * `outputSchema`): recorded by every listing, read by `callTool`.
   */
  readonly toolDefinitions = new ToolDefinitions();

  /**
   * @param servers The configured servers (secrets stay in here, in the worker).
   * @param log Where server stderr lines and connection events go, prefixed `[mcp:<name>]`, redacted.
   */
  constructor(
    servers: readonly McpServerConfig[],
    log: Log = (line) => process.stderr.write(`${line}\n`),
    options: McpConnectionsOptions = {},
  ) {
    this.servers = new Map(servers.map((server) => [server.name, server]));
    this.oauth = options.oauth;
    this.connectBackoffMs = options.connectBackoffMs ?? DEFAULT_CONNECT_BACKOFF_MS;
    this.eras = options.eras ?? processEraMemory;
    this.secrets = [...new Set(servers.flatMap(serverSecrets))];
    // Servers and their transports quote what they were given (a URL with its token, a header, an
    // env value, an upstream's credentials): every line is redacted before it reaches the log.
    this.log = (line, level) => log(this.redact(line), level);
    const idleMs = options.idleCloseMs ?? 0;
    if (idleMs > 0) {
      this.idleTimer = setInterval(() => this.closeIdle(idleMs), Math.max(50, Math.min(idleMs / 2, 60_000)));
      this.idleTimer.unref();
    }
  }

  /**
   * `text` without any server's known secret (env and header values, URL credentials and query
   * values) nor secret-looking text (URL credentials, credential query parameters, `Authorization`
   * values, Bearer tokens: `redactSecrets`); for text about MCP servers bound for a log.
   */
  redact(text: string): string {
    return redactSecrets(text, this.secrets);
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
    return (await this.entry(name).opening).client;
  }

  /**
   * Runs `body` with the server's client, counting it as in use (idle closing skips it). When `body`
   * fails at the transport level, that connection is dropped, so the next use reconnects.
   */
  async use<T>(name: string, body: (client: Client) => Promise<T>, options: UseOptions = {}): Promise<T> {
    if (options.failFastWhenDown === true) this.failIfBackingOff(name);
    const entry = this.entry(name);
    if (options.failFastWhenDown === true && entry.opened === undefined && entry.waitedInVain === true) {
      // One turn waited for this connect already: the next ones go on without it until it ends.
      throw new HostError(`MCP server "${name}" is still connecting (an earlier request waited for it in vain)`, 'mcp.connect_failed', true);
    }
    entry.inFlight += 1;
    entry.lastUsed = Date.now();
    try {
      const { client } = entry.opened ?? (await this.waitForOpening(name, entry, options.connectWaitMs, options.failFastWhenDown === true));
      try {
        return await body(client);
      } catch (err) {
        if (isTransportFailure(err)) {
          this.log(`[mcp:${name}] connection failed (${err instanceof Error ? err.message : String(err)}); it reopens on next use`);
          this.reset(name, client);
        }
        throw err;
      }
    } finally {
      entry.inFlight -= 1;
      entry.lastUsed = Date.now();
    }
  }

  /**
   * Drops the server's connection (only if it is still `client`, when given: a late failure of an old
   * connection must not drop its replacement). It is closed in the background; the next use reconnects.
   */
  reset(name: string, client?: Client): void {
    const entry = this.entries.get(name);
    if (!entry || (client !== undefined && entry.opened?.client !== client)) return;
    this.entries.delete(name);
    this.closeInBackground(entry);
  }

  /** The protocol revision the server's connection speaks and how it was chosen, while it is connected. */
  protocol(name: string): NegotiatedProtocol | undefined {
    return this.entries.get(name)?.opened?.protocol;
  }

  /** The process id of the server's stdio process, while it is connected (undefined for HTTP). */
  pid(name: string): number | undefined {
    return this.entries.get(name)?.opened?.pid;
  }

  /**
   * Grows whenever a tool list may have changed: a server sent `notifications/tools/list_changed`, or
   * a server's connection was reopened (notifications sent while it was down are lost). A catalogue
   * built at one generation is valid while it stays the same.
   */
  toolsGeneration(): number {
    return this.generation;
  }

  /** Closes every connection and resolves once every stdio server process has exited. */
  async closeAll(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearInterval(this.idleTimer);
    for (const entry of this.entries.values()) this.closeInBackground(entry);
    this.entries.clear();
    await Promise.all([...this.closing]);
  }

  /** The entry's connection once open, or a `mcp.connect_failed` after `waitMs` (the connect goes on). */
  private async waitForOpening(name: string, entry: Entry, waitMs: number | undefined, failFast: boolean): Promise<OpenedConnection> {
    if (waitMs === undefined) return entry.opening;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        if (failFast) entry.waitedInVain = true;
        reject(new HostError(`MCP server "${name}" has not finished connecting within ${waitMs} ms; still trying in the background`, 'mcp.connect_failed', true));
      }, waitMs);
    });
    try {
      return await Promise.race([entry.opening, gaveUp]);
    } finally {
      clearTimeout(timer);
    }
  }

  private failIfBackingOff(name: string): void {
    const failures = this.connectFailures.get(name);
    const left = failures === undefined || this.entries.has(name) ? 0 : failures.until - Date.now();
    if (failures === undefined || left <= 0) return;
    throw new HostError(`cannot connect to MCP server "${name}": ${failures.message}; it is tried again in ${Math.ceil(left / 1000)} s`, 'mcp.connect_failed', true);
  }

  private entry(name: string): Entry {
    if (this.closed) throw new HostError('the worker is shutting down', 'mcp.shutting_down', true);
    const existing = this.entries.get(name);
    if (existing) {
      const pid = existing.opened?.pid;
      if (pid === undefined || isChildAlive(pid)) return existing;
      // The process is gone but its close event has not been handled yet: a request written now
      // would go into a dead pipe and only fail later, looking as if it had been in flight.
      this.entries.delete(name);
      this.closeInBackground(existing);
    }
    const server = this.server(name);
    const entry: Entry = { opening: this.open(name, server), inFlight: 0, lastUsed: Date.now() };
    // A failed open leaves no entry behind, so the next use tries again.
    entry.opening.then(
      (opened) => {
        entry.opened = opened;
      },
      () => {
        if (this.entries.get(name) === entry) this.entries.delete(name);
      },
    );
    this.entries.set(name, entry);
    return entry;
  }

  private async open(name: string, server: McpServerConfig): Promise<OpenedConnection> {
    let opened: OpenedConnection;
    // A pinned revision needs no memory; otherwise a server probed before is not probed again.
    const prior = server.protocolVersion === undefined ? this.eras.recall(server) : undefined;
    try {
      opened = await openClient(server, this.log, { ...(this.oauth !== undefined ? { oauth: this.oauth } : {}), ...(prior !== undefined ? { prior } : {}) });
    } catch (err) {
      // The era remembered may be what failed (a server replaced by one of the other era): probe next time.
      if (prior !== undefined) this.eras.forget(server);
      const message = err instanceof Error ? err.message : String(err);
      const count = (this.connectFailures.get(name)?.count ?? 0) + 1;
      const backoffMs = Math.min(MAX_CONNECT_BACKOFF_MS, this.connectBackoffMs * 2 ** (count - 1));
      this.connectFailures.set(name, { count, until: Date.now() + backoffMs, message });
      this.log(`[mcp:${name}] cannot connect (${count} in a row; not tried again for ${Math.ceil(backoffMs / 1000)} s): ${message}`);
      // Already decided (an OAuth login that is missing is not worth retrying).
      if (err instanceof HostError) throw err;
      throw new HostError(`cannot connect to MCP server "${name}": ${message}`, 'mcp.connect_failed', true);
    }
    this.connectFailures.delete(name);
    const { client } = opened;
    if (opened.protocol.source === 'probed') this.rememberEra(server, client);
    client.onclose = () => {
      // Only an unexpected close (the process died, the server hung up) is news; a reset already dropped it.
      if (this.entries.get(name)?.opened?.client !== client) return;
      this.entries.delete(name);
      if (!this.closed) this.log(`[mcp:${name}] connection closed; it reopens on next use`);
    };
    // S4/list_changed: the catalogue is listed again at the start of the next turn.
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      this.generation += 1;
    });
    if (this.openedBefore.has(name)) this.generation += 1;
    this.openedBefore.add(name);
    const version = client.getServerVersion();
    const protocol = `MCP ${opened.protocol.version}${opened.protocol.source === 'probed' ? '' : ` (${opened.protocol.source})`}`;
    this.log(`[mcp:${name}] connected${opened.pid !== undefined ? ` (pid ${opened.pid})` : ''}: ${version ? `${version.name} ${version.version}` : 'unnamed server'}, ${protocol}`, 'info');
    return opened;
  }

  private rememberEra(server: McpServerConfig, client: Client): void {
    const discover = client.getDiscoverResult();
    if (client.getProtocolEra() === 'modern' && discover !== undefined) this.eras.remember(server, { kind: 'modern', discover });
    else if (client.getProtocolEra() === 'legacy') this.eras.remember(server, { kind: 'legacy' });
  }

  private closeInBackground(entry: Entry): void {
    const done: Promise<void> = entry.opening.then(
      (opened) => opened.close(),
      () => undefined,
    );
    const tracked = done.finally(() => this.closing.delete(tracked));
    this.closing.add(tracked);
  }

  private closeIdle(idleMs: number): void {
    const now = Date.now();
    for (const [name, entry] of this.entries) {
      if (entry.opened && entry.inFlight === 0 && now - entry.lastUsed >= idleMs) {
        this.log(`[mcp:${name}] idle for ${idleMs} ms; closing (it reopens on next use)`, 'info');
        this.entries.delete(name);
        this.closeInBackground(entry);
      }
    }
  }
}
