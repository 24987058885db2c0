/**
 * Opens a connected MCP client for one configured server over its transport (S1, S2): stdio for a
 * local process (stderr captured into the worker log under the server's name), Streamable HTTP for
 * a URL with the legacy SSE transport as fallback, or SSE when configured so.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import * as readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { McpServerConfig } from './config';
import { pinProtocolVersion } from './pin-protocol-version';

/** The host's name and version in `initialize` (clientInfo). */
export const CLIENT_INFO = { name: 'durable-mcp-host', version: '0.1.0' };

/** A line logger. */
export type Log = (line: string) => void;

function newClient(): Client {
  // No capabilities are claimed that the host does not implement (no sampling, no roots).
  return new Client(CLIENT_INFO, { capabilities: {} });
}

function stdioTransport(server: Extract<McpServerConfig, { transport: 'stdio' }>, log: Log): Transport {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...getDefaultEnvironment(), ...server.env },
    ...(server.cwd !== undefined ? { cwd: server.cwd } : {}),
    stderr: 'pipe',
  });
  const stderr = transport.stderr as Readable | null;
  if (stderr) readline.createInterface({ input: stderr }).on('line', (line) => log(`[mcp:${server.name}] ${line}`));
  return transport;
}

async function connect(client: Client, transport: Transport): Promise<Client> {
  await client.connect(pinProtocolVersion(transport));
  return client;
}

/** Connects and completes the three-step handshake (S3); throws when the server cannot be reached. */
export async function openClient(server: McpServerConfig, log: Log): Promise<Client> {
  if (server.transport === 'stdio') return connect(newClient(), stdioTransport(server, log));
  const url = new URL(server.url);
  const requestInit = { headers: server.headers };
  if (server.transport === 'sse') return connect(newClient(), new SSEClientTransport(url, { requestInit }));
  try {
    return await connect(newClient(), new StreamableHTTPClientTransport(url, { requestInit }));
  } catch (err) {
    // Servers from before Streamable HTTP only speak the HTTP+SSE transport of protocol 2024-11-05.
    log(`[mcp:${server.name}] Streamable HTTP failed (${err instanceof Error ? err.message : String(err)}); trying SSE`);
    return connect(newClient(), new SSEClientTransport(url, { requestInit }));
  }
}
