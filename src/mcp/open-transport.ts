/**
 * Opens a connected MCP client for one configured server over its transport (S1, S2): stdio for a
 * local process (stderr captured into the worker log under the server's name), Streamable HTTP for
 * a URL with the legacy SSE transport as fallback, or SSE when configured so.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import * as readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { McpServerConfig } from './config';
import { finishAuthorizationAndResend, oauthProviderFor, type HostOAuthOptions } from './oauth/oauth-transport';
import { pinProtocolVersion } from './pin-protocol-version';
import { settlePendingSends } from './settle-pending-sends';
import { noteProtocolError } from './protocol-errors';
import { waitForChildExit } from './wait-for-child-exit';

/** The host's name and version in `initialize` (clientInfo). */
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
  /** Closes the connection; for stdio it resolves once the server process has exited. */
  close(): Promise<void>;
}

type StdioServer = Extract<McpServerConfig, { transport: 'stdio' }>;
type HttpServer = Extract<McpServerConfig, { transport: 'http' | 'sse' }>;

function newClient(server: McpServerConfig, log: Log): Client {
  // No capabilities are claimed that the host does not implement (no sampling, no roots, no elicitation).
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  // Without a handler the SDK drops transport errors (bad lines on stdout, a failed SSE stream) silently.
  client.onerror = (err) => {
    log(`[mcp:${server.name}] ${err.message}`);
    // Garbage from the server: a call whose answer it was fails as a protocol error, not a timeout.
    noteProtocolError(client, err);
  };
  return client;
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

async function openStdio(server: StdioServer, log: Log): Promise<OpenedConnection> {
  const transport = stdioTransport(server, log);
  const client = newClient(server, log);
  // The pid is read as soon as the process exists: if the handshake fails, the SDK starts closing
  // the transport and forgets the process, and the host still has to see it gone.
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
    await client.connect(pinProtocolVersion(transport), { timeout: CONNECT_TIMEOUT_MS });
  } catch (err) {
    await close();
    throw err;
  }
  return { client, pid, close };
}

/** A 4xx answer to the `initialize` POST: the server predates Streamable HTTP (the spec's fallback rule). */
function wantsLegacySse(err: unknown): boolean {
  return err instanceof StreamableHTTPError && err.code !== undefined && err.code >= 400 && err.code < 500 && err.code !== 401 && err.code !== 403;
}

async function openHttp(server: HttpServer, log: Log, oauth: HostOAuthOptions | undefined): Promise<OpenedConnection> {
  const url = new URL(server.url);
  const requestInit: RequestInit = { headers: server.headers };
  const connect = async (transport: Transport, close: (client: Client) => Promise<void>): Promise<OpenedConnection> => {
    const client = newClient(server, log);
    try {
      await client.connect(pinProtocolVersion(transport), { timeout: CONNECT_TIMEOUT_MS });
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    return { client, pid: undefined, close: () => close(client) };
  };
  const sse = (): Promise<OpenedConnection> =>
    // The SSE transport sends requestInit's headers on its POSTs and, through its default fetch, on the GET stream.
    connect(new SSEClientTransport(url, { requestInit }), (client) => client.close().catch(() => undefined));
  if (server.transport === 'sse') return sse();

  // OAuth (src/mcp/oauth): tokens from the worker's token store, refreshed there; Streamable HTTP only.
  const authProvider = oauthProviderFor(server, oauth);
  const streamable = new StreamableHTTPClientTransport(url, { requestInit, ...(authProvider !== undefined ? { authProvider } : {}) });
  if (authProvider !== undefined) finishAuthorizationAndResend(streamable, authProvider);
  try {
    return await connect(streamable, async (client) => {
      // A polite goodbye (DELETE of the session) so the server can free it; bounded, and errors are
      // expected when the session is already gone.
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
 * Connects and completes the three-step handshake (S3), asking for protocol 2025-06-18.
 * @param oauth The token store and, outside a worker, who can authorize (default: the worker's store).
 * @throws when the server cannot be reached or the handshake fails; nothing is left running then.
 *   `OAuthLoginRequiredError` when the server needs an OAuth login the store does not hold.
 */
export async function openClient(server: McpServerConfig, log: Log, oauth?: HostOAuthOptions): Promise<OpenedConnection> {
  return server.transport === 'stdio' ? openStdio(server, log) : openHttp(server, log, oauth);
}
