/**
 * A server that answers garbage (issue 9): bytes that are not JSON-RPC, or a response whose result
 * is not an object. That is a protocol error, not a timeout: the call fails as `mcp.protocol_error`,
 * and a tool not marked idempotent is not run again (it may have run); one marked idempotent is
 * retried. Real servers: the stdio scenario server's `garbage` tool, and an in-process Streamable
 * HTTP server whose `tools/call` answers are garbage.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createCallTool } from '../../src/activities/call-tool';
import type { ToolCallOutput } from '../../src/activities/types';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { failureOf, quietActivityEnvironment } from '../fixtures/mock-activities';
import { scenarioServer } from '../fixtures/reference-servers';

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** A stateless Streamable HTTP server whose tools/call answer is `body(id)` (JSON), everything else as the SDK answers. */
async function startGarbageHttpServer(body: (id: unknown) => string): Promise<{ url: string; calls: () => number; close(): Promise<void> }> {
  let calls = 0;
  const http: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const message = await readJson(req);
      if (typeof message === 'object' && message !== null && 'method' in message && message.method === 'tools/call') {
        calls += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(body('id' in message ? message.id : null));
        return;
      }
      const server = new McpServer({ name: 'garbage-http', version: '1.0.0' });
      server.registerTool('charge_card', { description: 'Charges a card (answers garbage).', inputSchema: {} }, () => ({ content: [] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls: () => calls,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function call(connections: McpConnections, server: string, tool: string, idempotent: boolean): Promise<ToolCallOutput> {
  return quietActivityEnvironment().run(createCallTool({ connections }), { server, tool, arguments: {}, toolUseId: 'toolu_test', idempotent });
}

describe('a server that answers garbage: a protocol error, not a timeout', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-garbage-'));
  const logFile = path.join(dir, 'babbler.log');
  const starts = (): number => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter((l) => l === 'start garbage').length : 0);
  let notJson: Awaited<ReturnType<typeof startGarbageHttpServer>>;
  let notObject: Awaited<ReturnType<typeof startGarbageHttpServer>>;
  let connections: McpConnections;

  beforeAll(async () => {
    notJson = await startGarbageHttpServer(() => 'this is not JSON-RPC');
    notObject = await startGarbageHttpServer((id) => JSON.stringify({ jsonrpc: '2.0', id, result: 'not an object' }));
    connections = new McpConnections(
      [
        scenarioServer('babbler', { SCENARIO_TOOLS: 'garbage', SCENARIO_LOG: logFile }, { timeoutMs: 1500 }),
        { name: 'http-not-json', transport: 'http', url: notJson.url, headers: {}, tools: {} },
        { name: 'http-not-object', transport: 'http', url: notObject.url, headers: {}, tools: {} },
      ],
      () => undefined,
    );
  });
  afterAll(async () => {
    await connections?.closeAll();
    await notJson?.close();
    await notObject?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('stdio: a line that is not JSON-RPC, then a result that is not an object; not idempotent: final, run once', async () => {
    const failure = await failureOf(call(connections, 'babbler', 'garbage', false));
    expect(failure.type).toBe('mcp.protocol_error');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toMatch(/not .*JSON-RPC/);
    expect(failure.message).toMatch(/not run again/);
    expect(starts()).toBe(1);
  }, 30_000);

  test('stdio: the same call of a tool marked idempotent is retried (within its budget)', async () => {
    const failure = await failureOf(call(connections, 'babbler', 'garbage', true));
    expect(failure.type).toBe('mcp.protocol_error');
    expect(failure.nonRetryable).toBeFalsy();
  }, 30_000);

  test.each([
    ['http-not-json', () => notJson],
    ['http-not-object', () => notObject],
  ] as const)('Streamable HTTP (%s): a protocol error at once, not run again', async (server, http) => {
    const started = Date.now();
    const failure = await failureOf(call(connections, server, 'charge_card', false));
    expect(failure.type).toBe('mcp.protocol_error');
    expect(failure.nonRetryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(http().calls()).toBe(1);
  }, 30_000);
});
