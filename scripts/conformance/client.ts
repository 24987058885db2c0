/**
 * The client that the MCP conformance suite runs for each of its client scenarios
 * (`conformance client --command "<this program>" --scenario <name>`). The suite starts a test
 * server, appends its URL to the command line and names the scenario in MCP_CONFORMANCE_SCENARIO.
 *
 * It does what the host's worker does for a conversation, with the worker's own code: the server
 * is configured as an `mcp.json` URL entry (Streamable HTTP with SSE fallback, protocol version
 * pinned by `openClient`) in an `McpConnections` pool; the `listTools` activity builds the tool
 * catalogue; the `callTool` activity calls each tool, converting the result for Claude. The
 * activities run in Temporal's mock activity context, so no Temporal server is needed. The host
 * has a single behaviour whatever the scenario; the suite judges what it observes.
 *
 * Run on the project's Node (20) with tsx: `node --import tsx scripts/conformance/client.ts <url>`.
 * Exit code 0 when connecting and listing succeeded and every tool call returned (an `isError`
 * result is data, as in a conversation), 1 otherwise.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCallTool } from '../../src/activities/call-tool';
import { createListTools } from '../../src/activities/list-tools';
import { findToolRoute } from '../../src/conversation/tool-routes';
import { loadMcpConfig, type McpServerConfig } from '../../src/mcp/config';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { OAuthTokenStore } from '../../src/mcp/oauth/token-store';
import { headlessAuthorization } from './headless-authorization';
import { ToolCatalogCache } from '../../src/mcp/tool-catalog';
import { sampleArguments } from './sample-arguments';

/** The name the test server has in the host's configuration. */
const SERVER_NAME = 'conformance';

/**
 * Where the host publishes its client ID metadata document, as a deployment would configure it in
 * `oauth.clientMetadataUrl`; the suite's CIMD scenario expects this URL as the client ID.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The suite's hand-over for a scenario (MCP_CONFORMANCE_CONTEXT), when it gives one. */
function conformanceContext(): Record<string, unknown> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw === undefined ? {} : (JSON.parse(raw) as Record<string, unknown>);
}

/**
 * The server's entry as a user would write it in mcp.json for the scenario, and the environment it
 * reads: a pre-registered client when the suite hands one over (`clientId`/`clientSecret`), and for
 * the client-credentials scenarios (SEP-1046) `"grant": "client_credentials"` with the secret as a
 * `${VAR}` reference or the private key in a file, as the host requires for that grant.
 */
function serverEntry(url: string, dir: string): { entry: Record<string, unknown>; env: Record<string, string> } {
  const context = conformanceContext();
  const clientId = typeof context.client_id === 'string' ? context.client_id : undefined;
  const clientSecret = typeof context.client_secret === 'string' ? context.client_secret : undefined;
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? (typeof context.name === 'string' ? context.name : '');
  if (scenario.startsWith('auth/client-credentials') && clientId !== undefined) {
    if (typeof context.private_key_pem === 'string') {
      const keyFile = join(dir, 'client-key.pem');
      writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
      const algorithm = typeof context.signing_algorithm === 'string' ? { signingAlgorithm: context.signing_algorithm } : {};
      return { entry: { url, oauth: { grant: 'client_credentials', clientId, privateKeyFile: keyFile, ...algorithm } }, env: {} };
    }
    if (clientSecret !== undefined) {
      return { entry: { url, oauth: { grant: 'client_credentials', clientId, clientSecret: '${CONFORMANCE_CLIENT_SECRET}' } }, env: { CONFORMANCE_CLIENT_SECRET: clientSecret } };
    }
  }
  const oauth: Record<string, unknown> = { clientMetadataUrl: CLIENT_METADATA_URL };
  if (clientId !== undefined) oauth.clientId = clientId;
  if (clientSecret !== undefined) {
    oauth.clientSecret = '${CONFORMANCE_CLIENT_SECRET}';
    return { entry: { url, oauth }, env: { CONFORMANCE_CLIENT_SECRET: clientSecret } };
  }
  return { entry: { url, oauth }, env: {} };
}

/** The scenario's server, read through the host's own mcp.json loader. */
async function configuredServer(url: string, dir: string): Promise<McpServerConfig> {
  const { entry, env } = serverEntry(url, dir);
  const path = join(dir, 'mcp.json');
  writeFileSync(path, JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2));
  const [server] = await loadMcpConfig(path, { ...process.env, ...env });
  if (server === undefined) throw new Error('the scenario\'s mcp.json has no server');
  return server;
}

/** Runs one activity in the mock activity context (the SDK's `run` cannot infer the result type). */
function inActivity<I, O>(env: MockActivityEnvironment, activity: (input: I) => Promise<O>, input: I): Promise<O> {
  return env.run<[I], O, (input: I) => Promise<O>>(activity, input);
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** One result line on stdout, which the suite saves as the scenario's stdout.txt. */
function report(event: string, details: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ event, ...details })}\n`);
}

async function runHost(url: string, scenario: string): Promise<void> {
  // OAuth as `mcp-host login` does it, with a headless user agent approving in the person's stead,
  // and a token store of this run's own.
  const storeDir = mkdtempSync(join(tmpdir(), 'conformance-oauth-'));
  const server = await configuredServer(url, storeDir);
  const store = new OAuthTokenStore(join(storeDir, 'oauth-tokens.json'));
  const connections = new McpConnections([server], log, { oauth: { store, interactive: headlessAuthorization(log) } });
  const activities = new MockActivityEnvironment();
  try {
    report('start', { scenario, url });
    const client = await connections.client(SERVER_NAME);
    report('initialized', { server: client.getServerVersion() ?? null, capabilities: client.getServerCapabilities() ?? null });

    const listTools = createListTools(new ToolCatalogCache(connections));
    const listed = await inActivity(activities, listTools, {});
    if (!listed.changed) throw new Error('listTools answered "unchanged" without a known digest');
    const { tools } = listed.catalog;
    report('tools', { names: tools.map((tool) => tool.name) });

    const callTool = createCallTool({ connections });
    for (const tool of tools) {
      const route = findToolRoute(listed.catalog, tool.name);
      if (route === undefined) throw new Error(`the catalogue has no route for tool "${tool.name}"`);
      const args = sampleArguments(tool.input_schema);
      const result = await inActivity(activities, callTool, {
        server: route.server,
        tool: route.name,
        arguments: args,
        toolUseId: `toolu_conformance_${tool.name}`,
      });
      report('tool_result', { tool: route.name, arguments: args, ...result });
    }
  } finally {
    await connections.closeAll();
    rmSync(storeDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const url = process.argv[2];
  if (url === undefined) {
    log('usage: client.ts <server-url>   (run by `conformance client`, which appends the URL)');
    return 2;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
  try {
    await runHost(url, scenario);
    report('done', { ok: true });
    return 0;
  } catch (err) {
    report('done', { ok: false, error: err instanceof Error ? err.message : String(err) });
    return 1;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    log(String(err));
    process.exitCode = 1;
  },
);
