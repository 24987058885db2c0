/**
 * The client that the MCP conformance suite runs for each of its client scenarios
 * (`conformance client --command "<this program>" --scenario <name>`). The suite starts a test
 * server, appends its URL to the command line and names the scenario in MCP_CONFORMANCE_SCENARIO.
 *
 * It does what the host's worker does for a conversation, with the worker's own code: the server
 * is configured as an `mcp.json` URL entry (Streamable HTTP with SSE fallback, the revision
 * negotiated by `openClient`) in an `McpConnections` pool; the `listTools` activity builds the tool
 * catalogue; the `callTool` activity calls tools, converting the result for Claude. The activities
 * run in Temporal's mock activity context, so no Temporal server is needed. The host has a single
 * behaviour whatever the scenario; the suite judges what it observes.
 *
 * Which tools are called, with what, stands in for the model: the calls the suite names in
 * MCP_CONFORMANCE_CONTEXT (`toolCalls: [{name, arguments}]`) when it names some, else every
 * listed tool with arguments derived from its input schema (`sample-arguments.ts`), except where a
 * scenario's tool asks for something only the host has (`scenario-arguments.ts`). A call that
 * fails is reported as the conversation would give it to Claude, an `is_error` result.
 *
 * Run on the project's Node (20) with tsx: `node --import tsx scripts/conformance/client.ts <url>`.
 * Exit code 0 when connecting and listing succeeded (a tool call's failure is data, as in a
 * conversation), 1 otherwise.
 */
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCallTool } from '../../src/activities/call-tool';
import { createListTools } from '../../src/activities/list-tools';
import { toolRouteEntries } from '../../src/conversation/tool-routes';
import { loadMcpConfig, type McpServerConfig } from '../../src/mcp/config';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { OAuthTokenStore } from '../../src/mcp/oauth/token-store';
import { headlessAuthorization } from './headless-authorization';
import { ToolCatalogCache } from '../../src/mcp/tool-catalog';
import { sampleArguments } from './sample-arguments';
import { standInAnswer } from './stand-in-user';
import { contextToolCalls, scenarioArguments, type PlannedCall } from './scenario-arguments';

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
 * reads: a pre-registered client when the suite hands one over (`clientId`/`clientSecret`, and the
 * `issuer` of its authorization server); for
 * the client-credentials scenarios (SEP-1046) `"grant": "client_credentials"` with the secret as a
 * `${VAR}` reference or the private key in a file, as the host requires for that grant; for workload
 * identity (SEP-1933) `"grant": "jwt_bearer"` with the workload's token in a file, as a platform
 * mounts it (a Kubernetes projected service-account token).
 */
function serverEntry(url: string, dir: string): { entry: Record<string, unknown>; env: Record<string, string> } {
  const context = conformanceContext();
  const clientId = typeof context.client_id === 'string' ? context.client_id : undefined;
  const clientSecret = typeof context.client_secret === 'string' ? context.client_secret : undefined;
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? (typeof context.name === 'string' ? context.name : '');
  if (scenario.startsWith('auth/wif-') && typeof context.valid_jwt === 'string') {
    const assertionFile = join(dir, 'workload-token');
    writeFileSync(assertionFile, context.valid_jwt, { mode: 0o600 });
    return { entry: { url, oauth: { grant: 'jwt_bearer', assertionFile, ...(clientId !== undefined ? { clientId } : {}) } }, env: {} };
  }
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
  // The authorization server the pre-registered client belongs to, when the suite names it.
  if (clientId !== undefined && typeof context.issuer === 'string') oauth.issuer = context.issuer;
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

/** A failed activity's type and message, as `failureMessage` in the workflow gives them. */
function failureText(err: unknown): string {
  if (err instanceof ApplicationFailure) return err.type ? `${err.type}: ${err.message}` : err.message;
  return err instanceof Error ? err.message : String(err);
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

    const callTool = createCallTool({ connections, asker: () => ({ roots: [], ask: (request) => Promise.resolve(standInAnswer(request)) }) });
    const named = contextToolCalls(conformanceContext());
    const planned: PlannedCall[] =
      named ??
      toolRouteEntries(listed.catalog).map(([claudeName, route]) => ({
        name: route.name,
        arguments: scenarioArguments(scenario, route.name, listed.catalog) ?? sampleArguments(tools.find((tool) => tool.name === claudeName)?.input_schema),
      }));
    for (const call of planned) {
      const found = toolRouteEntries(listed.catalog).find(([, route]) => route.server === SERVER_NAME && route.name === call.name);
      if (found === undefined) {
        // The host left the tool out of the catalogue (an invalid definition): Claude never sees it.
        report('not_offered', { tool: call.name });
        continue;
      }
      const [claudeName, route] = found;
      try {
        const input = { server: route.server, tool: route.name, arguments: call.arguments, toolUseId: `toolu_conformance_${claudeName}` };
        let result = await inActivity(activities, callTool, input);
        // 2026-07-28 `input_required`: answered as the workflow would, with the stand-in user's answers.
        for (let round = 1; result.inputRequired !== undefined && round <= 10; round++) {
          const { inputRequests, answered, requestState } = result.inputRequired;
          const inputResponses: Record<string, unknown> = { ...answered };
          let refused: string | undefined;
          for (const [key, request] of Object.entries(inputRequests)) {
            const answer = standInAnswer(request);
            if ('error' in answer) refused = answer.error.message;
            else inputResponses[key] = answer.result;
          }
          if (refused !== undefined) {
            result = { content: `[host] ${refused}`, isError: true, truncatedChars: 0 };
            break;
          }
          report('input_answered', { tool: route.name, keys: Object.keys(inputRequests) });
          result = await inActivity(activities, callTool, { ...input, inputResponses, ...(requestState !== undefined ? { requestState } : {}) });
        }
        report('tool_result', { tool: route.name, arguments: call.arguments, ...result });
      } catch (err) {
        // What the workflow writes for Claude when the call fails for good (src/workflows/run-tools.ts).
        report('tool_result', { tool: route.name, arguments: call.arguments, content: `[host] Tool "${claudeName}" could not be run: ${failureText(err)}`, isError: true });
      }
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
