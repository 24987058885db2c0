/**
 * The worker's log carries no MCP secret: every line the MCP layer writes (a stdio server's stderr,
 * transport errors the SDK reports, connection events, catalogue warnings, the start-up probe) is
 * redacted of the servers' known secrets and of secret-looking text (issue 9, secrets scenario).
 * Real servers: a Streamable HTTP server that fails with a body echoing its request (Authorization
 * header, URL token) and an upstream URL with a password, and a stdio server quoting its env secret
 * on stderr.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServerConfig } from '../../src/mcp/config';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { describeProbe, probeServers } from '../../src/mcp/probe-servers';
import { startEchoingHttpServer, type EchoingHttpServer } from '../fixtures/echoing-http-server';
import { callToolActivity as callTool, failureOf } from '../fixtures/mock-activities';
import { scenarioServer } from '../fixtures/reference-servers';

const SECRETS = {
  header: 'log-hdr-s3cret-7c1e09',
  urlToken: 'log-qry-s3cret-44ab2f',
  upstreamPassword: 'log-upw-s3cret-9d0e6b',
  env: 'log-env-s3cret-a2f5c8',
};

/** A server that answers every POST (the initialize too) with a 500 echoing the request, as a broken proxy does. */
async function startRefusingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const http: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`proxy: upstream https://svc:${SECRETS.upstreamPassword}@vault.internal/ refused POST ${req.url ?? ''} (authorization: ${req.headers.authorization ?? 'none'})`);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function httpServer(name: string, url: string): McpServerConfig {
  return { name, transport: 'http', url: `${url}?token=${SECRETS.urlToken}`, headers: { Authorization: `Bearer ${SECRETS.header}` }, tools: {} };
}

function leaksIn(lines: readonly string[]): string[] {
  return lines.filter((line) => Object.values(SECRETS).some((secret) => line.includes(secret)));
}

describe("MCP log lines carry no secret (the worker's log)", () => {
  let vault: EchoingHttpServer;
  let refusing: { url: string; close(): Promise<void> };
  const logs: string[] = [];
  let connections: McpConnections;

  beforeAll(async () => {
    vault = await startEchoingHttpServer(`https://svc:${SECRETS.upstreamPassword}@vault.internal/v1`);
    refusing = await startRefusingServer();
    connections = new McpConnections(
      [
        httpServer('vault', vault.url),
        httpServer('proxy', refusing.url),
        scenarioServer('quoter', { SCENARIO_TOOLS: 'echo_secret', SCENARIO_SECRET: SECRETS.env }),
      ],
      (line) => logs.push(line),
    );
  });
  afterAll(async () => {
    await connections?.closeAll();
    await vault?.close();
    await refusing?.close();
  });

  test('a Streamable HTTP tools/call answered by a 500 echoing the header, the URL token and an upstream password', async () => {
    const failure = await failureOf(callTool(connections, 'vault', 'vault_read'));
    expect(failure.type).toBeDefined();
    // The server did receive the header: the check is not vacuous.
    expect(vault.requests.some((r) => r.authorization === `Bearer ${SECRETS.header}`)).toBe(true);
    expect(logs.some((line) => line.startsWith('[mcp:vault]'))).toBe(true);
    expect(leaksIn(logs)).toEqual([]);
  });

  test('a stdio server quoting its env secret on stderr and in a JSON-RPC error', async () => {
    await failureOf(callTool(connections, 'quoter', 'echo_secret'));
    // The stderr line arrives on its own schedule.
    const deadline = Date.now() + 5000;
    while (!logs.some((line) => line.startsWith('[mcp:quoter]') && line.includes('refused the key')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(logs.some((line) => line.startsWith('[mcp:quoter]') && line.includes('refused the key'))).toBe(true);
    expect(leaksIn(logs)).toEqual([]);
  });

  test('a server whose handshake fails with an echoing 500: transport errors, catalogue warnings and the probe line', async () => {
    const probes: string[] = [];
    await probeServers(connections, (probe) => probes.push(describeProbe(probe)));
    expect(probes.find((line) => line.includes('proxy'))).toMatch(/unavailable/);
    expect(logs.some((line) => line.startsWith('[mcp:proxy]'))).toBe(true);
    expect(leaksIn([...logs, ...probes])).toEqual([]);
  });
});
