import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { sendWebResponse, toWebRequest } from './node-http-bridge';

const MCP_PATH = '/mcp';
const HOST = '127.0.0.1';
// The SDK's own default bound for a body it reads itself; we read it first, so we bound it.
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** The port on 127.0.0.1; 0 picks a free one. */
  readonly port: number;
  readonly log: (line: string) => void;
}

/** A connected 2025 session: the instance its `initialize` bound, and its transport. */
interface Session {
  readonly server: { close(): Promise<void> };
  readonly transport: WebStandardStreamableHTTPServerTransport;
}

/**
 * Serves MCP at http://127.0.0.1:PORT/mcp in both protocol eras until a signal arrives, then
 * exits the process; resolves with the URL once listening.
 *
 * A request carrying the 2026-07-28 `_meta` envelope goes to the SDK's `createMcpHandler`: one
 * fresh instance per request, no session. Everything else (`isLegacyRequest`, the SDK's own
 * classification) is 2025 traffic, served with stateful sessions as before the v2 SDK: an
 * `initialize` opens a session (`Mcp-Session-Id`) bound to one instance. The SDK's own legacy
 * fallback is stateless (no session id, GET and DELETE refused), so it is not used.
 */
export async function serveHttp(factory: McpServerFactory, options: ServeHttpOptions): Promise<URL> {
  const { log } = options;
  const sessions = new Map<string, Session>();
  const modern = createMcpHandler(factory, { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES });
  let boundPort = options.port;

  const httpServer = http.createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const origin = `http://${HOST}:${boundPort}`;
    const url = new URL(req.url ?? '/', origin);
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

    let body: Buffer | undefined;
    if (req.method === 'POST') {
      body = await readBody(req);
      if (body === undefined) {
        sendError(res, 413, -32000, 'Payload too large');
        return;
      }
    }
    const parsedBody = parseJson(body);
    const request = toWebRequest(req, res, origin, body);
    const response = (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: MAX_BODY_BYTES }))
      ? await serveLegacy(request, parsedBody)
      : await modern.fetch(request, parsedBody === undefined ? undefined : { parsedBody });
    await sendWebResponse(res, response);
  }

  /** 2025 traffic: a session's requests go to its transport; only `initialize` opens a session. */
  async function serveLegacy(request: Request, parsedBody: unknown): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id') ?? undefined;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // 404 tells a spec-following client to start a new session.
      if (session === undefined) return errorResponse(404, -32001, 'Session not found');
      return session.transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    }
    if (request.method !== 'POST' || (parsedBody !== undefined && !isInitializeRequest(parsedBody))) {
      return errorResponse(400, -32000, 'Bad Request: no valid session ID provided');
    }
    if (parsedBody === undefined) return errorResponse(400, -32700, 'Parse error');

    const server = await factory({ era: 'legacy', requestInfo: request });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
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
    return transport.handleRequest(request, { parsedBody });
  }

  let closing = false;
  const shutdown = (reason: string): void => {
    if (closing) return;
    closing = true;
    log(`shutting down (${reason})`);
    const closes = [...sessions.values()].map((session) => session.server.close());
    Promise.allSettled([...closes, modern.close()])
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
    httpServer.listen(options.port, HOST, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address();
  if (address !== null && typeof address === 'object') boundPort = address.port;
  return new URL(`http://${HOST}:${boundPort}${MCP_PATH}`);
}

/** The body, or undefined when it is larger than the bound. */
async function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The parsed JSON body, or undefined when there is none or it is not JSON. */
function parseJson(body: Buffer | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function errorResponse(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function sendError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
