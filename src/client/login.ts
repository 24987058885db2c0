/**
 * `mcp-host login SERVER`: the OAuth authorization-code flow for one HTTP MCP server of mcp.json,
 * run once by a person so that headless workers can use the server. It prints the authorization
 * URL, listens on a loopback redirect port (127.0.0.1), exchanges the code (PKCE), and stores the
 * tokens (and a dynamic client registration) in the token store every worker reads; then it
 * connects as a worker would and counts the server's tools. No token, code or secret is printed.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { loadMcpConfig, type McpServerConfig } from '../mcp/config';
import { HostOAuthProvider } from '../mcp/oauth/host-oauth-provider';
import { listenForCallback } from '../mcp/oauth/loopback-callback';
import { usesOAuth } from '../mcp/oauth/oauth-transport';
import { oauthStoreFromEnv } from '../mcp/oauth/oauth-store-from-env';
import { CLIENT_INFO, openClient } from '../mcp/transport/open-client';
import { clientOptionsFor } from '../mcp/transport/negotiation';

/** What `login` needs. */
export interface LoginOptions {
  /** The mcp.json to read the server from. */
  mcpConfigPath: string;
  /** The server's name in it. */
  server: string;
  /** The loopback port (default: the server's `oauth.redirectPort`, else any free port). */
  port?: number;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
  /** Variables for `${VAR}` in mcp.json and the store's location (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Where the URL and the outcome are printed. */
  out: (line: string) => void;
}

/** What a login achieved. */
export interface LoginResult {
  /** The token store written. */
  store: string;
  /** How many tools the server lists with the new login. */
  tools: number;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** How many tools the server lists (every `tools/list` page): what the new tokens are checked with. */
async function countTools(client: Client): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.listTools(cursor !== undefined ? { cursor } : {});
    count += result.tools.length;
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return count;
}

type HttpServer = Extract<McpServerConfig, { transport: 'http' | 'sse' }>;

async function findServer(options: LoginOptions): Promise<HttpServer> {
  const servers = await loadMcpConfig(options.mcpConfigPath, options.env ?? process.env);
  const server = servers.find((candidate) => candidate.name === options.server);
  if (server === undefined) {
    throw new Error(`${options.mcpConfigPath} has no server "${options.server}" (servers: ${servers.map((s) => s.name).join(', ') || 'none'})`);
  }
  if (server.transport !== 'http') throw new Error(`server "${server.name}" is not a Streamable HTTP server; OAuth applies to those only`);
  if (!usesOAuth(server)) throw new Error(`server "${server.name}" has OAuth turned off ("oauth": false or its own Authorization header)`);
  if (server.oauth !== undefined && server.oauth !== false && server.oauth.grant === 'client_credentials') {
    throw new Error(`server "${server.name}" uses the client-credentials grant: every worker gets its own tokens with the client's credential, no login is needed`);
  }
  if (server.oauth !== undefined && server.oauth !== false && server.oauth.grant === 'jwt_bearer') {
    throw new Error(`server "${server.name}" uses workload identity (the JWT-bearer grant): every worker gets its own tokens with its platform's identity token, no login is needed`);
  }
  return server;
}

/** Runs the login (see the module comment). */
export async function login(options: LoginOptions): Promise<LoginResult> {
  const server = await findServer(options);
  const store = oauthStoreFromEnv(options.env ?? process.env);
  const oauth = server.oauth === false ? undefined : server.oauth;
  const callback = await listenForCallback(options.port ?? oauth?.redirectPort ?? 0);
  try {
    const provider = new HostOAuthProvider({ name: server.name, url: server.url, oauth }, store, {
      redirectUrl: callback.redirectUrl,
      onAuthorizationUrl: (url) => {
        options.out(`Open this URL in a browser to authorize "${server.name}" (waiting for the redirect to ${callback.redirectUrl}):`);
        options.out(url.href);
        return Promise.resolve(undefined);
      },
    });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider, requestInit: { headers: server.headers } });
    const client = new Client(CLIENT_INFO, clientOptionsFor(server));
    try {
      await client.connect(transport);
      options.out(`"${server.name}" accepted the connection without a login; nothing was stored`);
    } catch (err) {
      if (!(err instanceof UnauthorizedError)) throw err;
      const redirect = await callback.response(provider.authorizationState, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      await transport.finishAuth(redirect);
    } finally {
      await client.close().catch(() => undefined);
    }
  } finally {
    await callback.close();
  }
  // As a worker will: the stored tokens, no person.
  const opened = await openClient(server, () => undefined, { oauth: { store } });
  try {
    const tools = await countTools(opened.client);
    options.out(`Logged in to "${server.name}": ${tools} tool${tools === 1 ? '' : 's'}; tokens stored in ${store.location}`);
    return { store: store.location, tools };
  } finally {
    await opened.close();
  }
}
