import type { Express, RequestHandler } from 'express';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * Serves a stateless MCP endpoint at POST /mcp behind `auth` (a bearer-token middleware) with one
 * tool, `whoami`, that names the OAuth client whose token called it; every bearer token it is
 * given goes into `bearers`, so a test can check which token each request carried.
 */
export function serveWhoami(app: Express, auth: RequestHandler, bearers: string[], serverName: string): void {
  app.post('/mcp', express.json(), auth, async (req, res) => {
    bearers.push(req.auth?.token ?? '');
    const mcp = new McpServer({ name: serverName, version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says which OAuth client is calling', inputSchema: {} }, (_args, extra) => ({
      content: [{ type: 'text', text: `hello, client ${extra.authInfo?.clientId ?? 'unknown'}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
}
