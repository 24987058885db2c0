/**
 * Opens a connected MCP client for one configured server over its transport (S1, S2): stdio for a
 * local process (stderr captured into the worker log under the server's name), Streamable HTTP for
 * a URL with the legacy SSE transport as fallback, or SSE when configured so. The client is the MCP
 * TypeScript SDK v2's, and the protocol revision is chosen per server
 * (`protocol-versions.ts`, `negotiation.ts`).
 */
import { Client, SdkHttpError, SSEClientTransport, StreamableHTTPClientTransport, type PriorDiscovery, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { McpServerConfig } from '../config';
import { authTransportOptions, finishAuthorizationAndResend, oauthProviderFor, type HostOAuthOptions } from '../oauth/oauth-transport';
import { settlePendingSends } from '../settle-pending-sends';
import { installServerRequestHandlers } from '../server-requests';
import { installTaskReceiver } from '../tasks/receiver-edge';
import { noteProtocolError } from '../protocol-errors';
import { clientOptionsFor, negotiatedProtocol, type NegotiatedProtocol } from './negotiation';
import { waitForChildExit } from '../wait-for-child-exit';
import { installRequestSpans } from '../../telemetry/mcp-request-spans';

/** The host's name and version in `initialize` (clientInfo) and in every 2026-07-28 request's `_meta`. */
export const CLIENT_INFO = { name: 'durable-mcp-host', version: '0.1.0' };

/**
 * A line logger. `info` marks routine lifecycle lines (connected, idle close) that a quiet
 * worker may drop; everything else (server stderr, failures, warnings) is always worth showing.
 */
export type Log = (line: string, level?: 'info') => void;

/** The handshake's own timeout (the SDK's default): generous, as a first `npx -y` start downloads the server. */
const CONNECT_TIMEOUT_MS = 60_000;
/** How long shutdown waits for a stdio server to exit (the SDK needs up to 4 s to escalate to SIGKILL). */
const EXIT_WAIT_MS = 6_000;
/** How long closing waits for the server to acknowledge a DELETE of its HTTP session. */
const TERMINATE_SESSION_MS = 2_000;

/** A connected client and what closing it involves. */
export interface OpenedConnection {
  client: Client;
  /** The stdio server's process id; undefined for HTTP servers. */
  pid: number | undefined;
  /** The revision spoken and how it was chosen. */
  protocol: NegotiatedProtocol;
  /** Closes the connection; for stdio it resolves once the server process has exited. */
  close(): Promise<void>;
}

/** How to open one connection. */
export interface OpenClientOptions {
  /** OAuth: the token store and, outside a worker, who can authorize (default: the worker's store). */
  oauth?: HostOAuthOptions;
  /** The server's era as found before (`era-memory.ts`): no probe then. */
  prior?: PriorDiscovery;
}

type StdioServer = Extract<McpServerConfig, { transport: 'stdio' }>;
type HttpServer = Extract<McpServerConfig, { transport: 'http' | 'sse' }>;

function newClient(server: McpServerConfig, log: Log, legacySse = false): Client {
  const client = new Client(CLIENT_INFO, clientOptionsFor(server, legacySse));
  // What a 2025 server may ask on the connection (src/mcp/server-requests.ts).
  installServerRequestHandlers(client, server);
  // Without a handler the SDK drops transport errors (bad lines on stdout, a failed SSE stream) silently.
  client.onerror = (err) => {
    log(`[mcp:${server.name}] ${err.message}`);
    // Garbage from the server: a call whose answer it was fails as a protocol error, not a timeout.
    noteProtocolError(client, err);
  };
  return client;
}

/**
 * Connects `client` to `server` over `transport`, from the known era when there is one. A
 * remembered modern era is checked with one `server/discover` on the connection itself (a server
 * may have changed since), which also brings its capabilities and identity up to date.
 */
async function connect(client: Client, transport: Transport, server: McpServerConfig, prior: PriorDiscovery | undefined): Promise<void> {
  // A 2025 server may send its requests as tasks (src/mcp/tasks/receiver-edge.ts): declared in `initialize`.
  installTaskReceiver(client, transport, server);
  // With tracing on, a span per request and the trace context in its `_meta` (src/telemetry/mcp-request-spans.ts).
  installRequestSpans(client, transport, server);
  await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS, ...(prior !== undefined ? { prior } : {}) });
  if (prior?.kind === 'modern') await client.discover({ timeout: CONNECT_TIMEOUT_MS });
}

function stdioTransport(server: StdioServer, log: Log): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...getDefaultEnvironment(), ...server.env },
    ...(server.cwd !== undefined ? { cwd: server.cwd } : {}),
    stderr: 'pipe',
  });
  const stderr = transport.stderr as Readable | null;
  if (stderr) readline.createInterface({ input: stderr }).on('line', (line) => log(`[mcp:${server.name}] ${line}`));
  // A write to a server that exited would otherwise never settle (see settle-pending-sends.ts).
  return settlePendingSends(transport);
}

async function openStdio(server: StdioServer, log: Log, prior: PriorDiscovery | undefined): Promise<OpenedConnection> {
  const transport = stdioTransport(server, log);
  const client = newClient(server, log);
  // The pid is read as soon as the process exists: if the handshake fails, the SDK starts closing
  // the transport and forgets the process, and the host still has to see it gone. (The SDK's era
  // probe runs on a sibling process of its own, started and reaped before this one starts.)
  let pid: number | undefined;
  const start = transport.start.bind(transport);
  transport.start = async (): Promise<void> => {
    await start();
    pid = transport.pid ?? undefined;
  };
  const close = async (): Promise<void> => {
    await client.close().catch(() => undefined);
    if (pid !== undefined && !(await waitForChildExit(pid, EXIT_WAIT_MS))) {
      log(`[mcp:${server.name}] process ${pid} did not exit`);
    }
  };
  try {
    await connect(client, transport, server, prior);
  } catch (err) {
    await close();
    throw err;
  }
  return { client, pid, protocol: negotiatedProtocol(client, server, prior), close };
}

/** A 4xx answer to the `initialize` POST: the server predates Streamable HTTP (the spec's fallback rule). */
function wantsLegacySse(err: unknown): boolean {
  return err instanceof SdkHttpError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 403;
}

async function openHttp(server: HttpServer, log: Log, options: OpenClientOptions): Promise<OpenedConnection> {
  const url = new URL(server.url);
  const requestInit: RequestInit = { headers: server.headers };
  const open = async (transport: Transport, prior: PriorDiscovery | undefined, close: (client: Client) => Promise<void>): Promise<OpenedConnection> => {
    const legacySse = transport instanceof SSEClientTransport;
    const client = newClient(server, log, legacySse);
    try {
      await connect(client, transport, server, prior);
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    return { client, pid: undefined, protocol: negotiatedProtocol(client, server, legacySse ? undefined : prior), close: () => close(client) };
  };
  const sse = (): Promise<OpenedConnection> =>
    // The SSE transport (2024-11-05) is of the legacy era: it starts with `initialize`, never a probe.
    // It sends requestInit's headers on its POSTs and, through its default fetch, on the GET stream.
    open(new SSEClientTransport(url, { requestInit }), undefined, (client) => client.close().catch(() => undefined));
  if (server.transport === 'sse') return sse();

  // OAuth (src/mcp/oauth): tokens from the worker's token store, refreshed there; Streamable HTTP only.
  const authProvider = oauthProviderFor(server, options.oauth);
  const streamable = new StreamableHTTPClientTransport(url, { requestInit, ...authTransportOptions(authProvider) });
  if (authProvider !== undefined) finishAuthorizationAndResend(streamable, authProvider);
  try {
    return await open(streamable, options.prior, async (client) => {
      // A polite goodbye (DELETE of a 2025 session) so the server can free it; bounded, and errors
      // are expected when the session is already gone. A 2026-07-28 connection has no session.
      if (streamable.sessionId !== undefined) {
        await Promise.race([
          streamable.terminateSession().catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, TERMINATE_SESSION_MS).unref()),
        ]);
      }
      await client.close().catch(() => undefined);
    });
  } catch (err) {
    if (!wantsLegacySse(err)) throw err;
    log(`[mcp:${server.name}] Streamable HTTP refused (${(err as Error).message.slice(0, 200)}); trying the legacy SSE transport`);
    return sse();
  }
}

/**
 * Connects and settles the protocol revision: 2026-07-28 with a server that speaks it (stateless;
 * no `initialize`), else the three-step 2025 handshake (S3) asking for 2025-06-18, with nothing
 * before it on the connection.
 * @throws when the server cannot be reached or the handshake fails; nothing is left running then.
 *   `OAuthLoginRequiredError` when the server needs an OAuth login the store does not hold.
 */
export async function openClient(server: McpServerConfig, log: Log, options: OpenClientOptions = {}): Promise<OpenedConnection> {
  return server.transport === 'stdio' ? openStdio(server, log, options.prior) : openHttp(server, log, options);
}
