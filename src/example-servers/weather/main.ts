/**
 * Entry point of the seed's weather MCP server.
 *
 *   node --import tsx src/example-servers/weather/main.ts               # stdio (default)
 *   node --import tsx src/example-servers/weather/main.ts --http 8931   # Streamable HTTP
 *   WEATHER_HTTP_PORT=0 node --import tsx src/example-servers/weather/main.ts
 *
 * Over HTTP it serves http://127.0.0.1:PORT/mcp with stateful sessions and prints
 * `weather-server listening on http://127.0.0.1:PORT/mcp` to stderr; port 0 picks a free port and
 * the line carries the real one, so a parent process can read it.
 * Everything it logs goes to stderr: in stdio mode stdout is the JSON-RPC channel.
 */
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { serveStdio } from '../serve-stdio';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createWeatherServer } from './server';

const MCP_PATH = '/mcp';
const HOST = '127.0.0.1';
// The SDK transport's own default bound for a body it reads itself; we read it first, so we bound it.
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function log(message: string): void {
  process.stderr.write(`weather-server: ${message}\n`);
}

/** The HTTP port from `--http PORT`, `--http=PORT` or WEATHER_HTTP_PORT; undefined means stdio. */
function httpPort(argv: readonly string[], env: NodeJS.ProcessEnv): number | undefined {
  let raw: string | undefined;
  const index = argv.indexOf('--http');
  if (index >= 0) {
    raw = argv[index + 1] ?? '';
  } else {
    const inline = argv.find((arg) => arg.startsWith('--http='));
    raw = inline !== undefined ? inline.slice('--http='.length) : env.WEATHER_HTTP_PORT;
  }
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid HTTP port ${JSON.stringify(raw)} (want --http PORT, 0-65535)`);
  }
  return port;
}

/** Serves over stdio until stdin closes or a signal arrives, then exits the process. */
async function serveWeatherStdio(): Promise<void> {
  await serveStdio(createWeatherServer(), log);
  log('ready on stdio');
}

interface Session {
  readonly server: McpServer;
  readonly transport: StreamableHTTPServerTransport;
}

/** Listens on 127.0.0.1:port until a signal arrives; one McpServer per session. */
async function serveHttp(port: number): Promise<void> {
  const sessions = new Map<string, Session>();
  let boundPort = port;

  const httpServer = http.createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://${HOST}`);
    if (url.pathname !== MCP_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    // DNS rebinding protection: a page on another origin whose name resolves to 127.0.0.1 still
    // sends its own Host header. The SDK leaves this check to the caller.
    const allowedHosts = [`${HOST}:${boundPort}`, `localhost:${boundPort}`];
    if (!allowedHosts.includes(req.headers.host ?? '')) {
      sendError(res, 403, -32000, `Forbidden: invalid Host header ${JSON.stringify(req.headers.host ?? '')}`);
      return;
    }

    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (session === undefined) {
        // 404 tells a spec-following client to start a new session.
        sendError(res, 404, -32001, 'Session not found');
        return;
      }
      await session.transport.handleRequest(req, res);
      return;
    }

    if (req.method !== 'POST') {
      sendError(res, 400, -32000, 'Bad Request: no valid session ID provided');
      return;
    }
    const body = await readJsonBody(req, res);
    if (body === undefined) return;
    if (!isInitializeRequest(body)) {
      sendError(res, 400, -32000, 'Bad Request: no valid session ID provided');
      return;
    }

    const server = createWeatherServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport });
      },
    });
    // Set before connect(): Protocol chains onto an existing onclose rather than replacing it.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  let closing = false;
  const shutdown = (reason: string): void => {
    if (closing) return;
    closing = true;
    log(`shutting down (${reason})`);
    const closes = [...sessions.values()].map((session) => session.server.close());
    Promise.allSettled(closes)
      .then(
        () =>
          new Promise<void>((resolve) => {
            httpServer.close(() => resolve());
            // Open SSE streams would otherwise keep close() waiting.
            httpServer.closeAllConnections();
          }),
      )
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log(`close failed: ${String(error)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, HOST, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address();
  if (address !== null && typeof address === 'object') boundPort = address.port;
  // The one line a parent process parses for the port; keep its wording stable.
  process.stderr.write(`weather-server listening on http://${HOST}:${boundPort}${MCP_PATH}\n`);
}

/** Reads and parses a JSON body; on failure answers the request itself and returns undefined. */
async function readJsonBody(req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      sendError(res, 413, -32000, 'Payload too large');
      return undefined;
    }
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    sendError(res, 400, -32700, 'Parse error');
    return undefined;
  }
}

function sendError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function main(): Promise<void> {
  const port = httpPort(process.argv.slice(2), process.env);
  if (port === undefined) await serveWeatherStdio();
  else await serveHttp(port);
}

main().catch((error: unknown) => {
  log(`fatal: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
