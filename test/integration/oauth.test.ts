/**
 * OAuth end to end (issue 12): a local OAuth-protected Streamable HTTP MCP server
 * (test/support/rotating-oauth-server.ts, the MCP SDK's server auth pieces: mcpAuthRouter,
 * requireBearerAuth) and an in-memory provider with short-lived access tokens and rotating
 * refresh tokens; `mcp-host login` (the compiled CLI)
 * driven headlessly by the test following the authorization URL; the compiled worker as its own
 * process; conversations on the real dev server with the fake Messages API. It shows: the server
 * reported unavailable before the login while the turn goes on with the other server; tool calls
 * after the login; the access token expiring between two turns and the worker refreshing it; a
 * refused refresh reaching Claude as the host's is_error saying to log in, the conversation going
 * on, and the next call working after `login`; and no token, code or client secret in any
 * history (decoded with the data converter), request to Claude, the worker's log or the CLI output.
 */
import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MessageParam } from '../../src/conversation/types';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { dataConverter } from '../../src/temporal/data-converter';
import { sendMessageUpdate } from '../../src/workflows/definitions';
import { conversationWorkflow } from '../../src/workflows';
import { conversationOptions } from '../../src/client/conversation-options';
import type { CliRun } from '../support/cli-process';
import { historyText, messagesOf, type ConversationHandle } from '../support/loop-helpers';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { expectNoneIn } from '../support/expect-none-in';
import { spawnWorkerProcess, waitForLine, type WorkerProcess } from '../support/worker-process';
import { startRotatingOAuthServer, type RotatingOAuthServer } from '../support/rotating-oauth-server';
import { spawn } from 'node:child_process';

/** How long an access token lives: short, so the test can wait it out between two turns. */
const ACCESS_TOKEN_SECONDS = 2;

/** The protected server of this test: the shared one (test/support/rotating-oauth-server.ts). */
type ProtectedServer = RotatingOAuthServer;
const startProtectedServer = (): Promise<ProtectedServer> => startRotatingOAuthServer(ACCESS_TOKEN_SECONDS);

/**
 * `mcp-host login demo` with a person's part played by the test: it reads the authorization URL
 * the CLI prints and requests it like a browser would, following the redirects (to the CLI's
 * loopback listener).
 */
function loginHeadlessly(env: Record<string, string>): Promise<CliRun & { followed: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/mcp-host.js'), 'login', 'demo'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    let followed = 0;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stdout)?.[1];
      if (url !== undefined && followed === 0) {
        followed = 1;
        fetch(url).then((r) => r.text()).catch(reject);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr, followed }));
  });
}

const text = (t: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text: t }], stop_reason: 'end_turn' });
const callWhoami = (id: string): ScriptStep => ({ kind: 'message', content: [{ type: 'tool_use', id, name: 'whoami', input: {} }], stop_reason: 'tool_use' });

/** The tool_result the workflow sent for `toolUseId`, from the last request to Claude. */
function toolResultOf(fake: FakeMessagesApi, toolUseId: string): unknown {
  const messages: MessageParam[] = messagesOf(fake.requests[fake.requests.length - 1]);
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result' && block.tool_use_id === toolUseId) return block;
  }
  return undefined;
}

describe('OAuth for a remote MCP server, end to end', () => {
  let dir: string;
  let demo: ProtectedServer;
  let fake: FakeMessagesApi;
  let client: Client;
  let connection: Connection;
  let env: Record<string, string>;
  let mcpConfig: string;
  let storePath: string;
  const workers: WorkerProcess[] = [];
  const handles: ConversationHandle[] = [];
  const cliOutput: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'oauth-e2e-'));
    demo = await startProtectedServer();
    fake = await startFakeMessagesApi({ mode: 'scripted', script: [] });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    storePath = path.join(dir, 'shared', 'oauth-tokens.json');
    mcpConfig = path.join(dir, 'mcp.json');
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: {
          weather: { command: process.execPath, args: [path.join(REPO_ROOT, 'dist/example-servers/weather/main.js')] },
          demo: { url: demo.url },
        },
      }),
    );
    env = { MCP_CONFIG: mcpConfig, MCP_HOST_OAUTH_STORE: storePath };
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await connection?.close();
    await fake?.close();
    await demo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function startWorker(): Promise<WorkerProcess> {
    const worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath: mcpConfig, claudeBaseUrl: fake.url, env: { MCP_HOST_OAUTH_STORE: storePath } });
    workers.push(worker);
    return worker;
  }
  const taskQueue = `oauth-${randomUUID()}`;

  async function turn(handle: ConversationHandle, message: string): Promise<{ status: string; text: string }> {
    return handle.executeUpdate(sendMessageUpdate, { args: [message] });
  }

  async function newConversation(): Promise<ConversationHandle> {
    const handle = await client.workflow.start(conversationWorkflow, {
      taskQueue,
      workflowId: `oauth-${randomUUID()}`,
      args: [{ options: conversationOptions({ promptCache: { enabled: false } }) }],
    });
    handles.push(handle);
    return handle;
  }

  test('before the login: the worker reports the server in one line at start, and a turn goes on with the other server', async () => {
    const worker = await startWorker();
    const line = await waitForLine(worker, /MCP server demo: .*/);
    expect(line).toContain('needs an OAuth login (no stored OAuth tokens): run `mcp-host login demo`');
    const handle = await newConversation();
    fake.enqueue(text('Only the weather tools today.'));
    expect(await turn(handle, 'what can you do?')).toMatchObject({ status: 'completed', text: 'Only the weather tools today.' });
    const tools = (fake.requests[fake.requests.length - 1]?.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools).not.toContain('whoami');
    expect(tools.length).toBeGreaterThan(0);
    await worker.stop();
  }, 90_000);

  test('mcp-host login: prints the URL, takes the redirect on a loopback port, stores the tokens (0600) and counts the tools', async () => {
    const run = await loginHeadlessly(env);
    cliOutput.push(run.stdout, run.stderr);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Open this URL in a browser to authorize "demo"/);
    expect(run.stdout).toContain(`Logged in to "demo": 1 tool; tokens stored in ${storePath}`);
    expect(statSync(storePath).mode & 0o777).toBe(0o600);
    expect(demo.provider.issued.length).toBe(3); // one code, one access token, one refresh token
  }, 60_000);

  let handle: ConversationHandle;
  let worker: WorkerProcess;
  test('tool calls from a durable conversation; the access token expires between two turns and the worker refreshes it', async () => {
    worker = await startWorker();
    expect(await waitForLine(worker, /MCP server demo: .*/)).toBe('MCP server demo: 1 tool');
    handle = await newConversation();
    fake.enqueue(callWhoami('toolu_who01'), text('You are the registered client.'));
    expect(await turn(handle, 'who am I?')).toMatchObject({ status: 'completed' });
    expect(toolResultOf(fake, 'toolu_who01')).toMatchObject({ type: 'tool_result', content: expect.stringMatching(/^hello, client /) as unknown });
    expect(toolResultOf(fake, 'toolu_who01')).not.toHaveProperty('is_error');

    const refreshesBefore = demo.provider.refreshes;
    const tokenBefore = demo.bearers[demo.bearers.length - 1];
    await new Promise((resolve) => setTimeout(resolve, ACCESS_TOKEN_SECONDS * 1000 + 500));
    fake.enqueue(callWhoami('toolu_who02'), text('Still you.'));
    expect(await turn(handle, 'and now?')).toMatchObject({ status: 'completed' });
    expect(toolResultOf(fake, 'toolu_who02')).toMatchObject({ content: expect.stringMatching(/^hello, client /) as unknown });
    expect(demo.provider.refreshes).toBe(refreshesBefore + 1);
    expect(demo.bearers[demo.bearers.length - 1]).not.toBe(tokenBefore);
    const stored = JSON.parse(readFileSync(storePath, 'utf8')) as { servers: { demo: { tokens: { access_token: string } } } };
    expect(stored.servers.demo.tokens.access_token).toBe(demo.bearers[demo.bearers.length - 1]);
  }, 90_000);

  test('a refresh the server refuses: the call reaches Claude as the host’s is_error saying to log in; after login the next call works', async () => {
    demo.provider.revokeRefreshTokens();
    await new Promise((resolve) => setTimeout(resolve, ACCESS_TOKEN_SECONDS * 1000 + 500));
    fake.enqueue(callWhoami('toolu_who03'), text('You need to log in again.'));
    expect(await turn(handle, 'once more')).toMatchObject({ status: 'completed', text: 'You need to log in again.' });
    expect(demo.provider.refusedRefreshes).toBeGreaterThan(0);
    const failed = toolResultOf(fake, 'toolu_who03') as { is_error?: boolean; content: unknown };
    expect(failed.is_error).toBe(true);
    expect(JSON.stringify(failed.content)).toContain('needs an OAuth login');
    expect(JSON.stringify(failed.content)).toContain('mcp-host login demo');

    const again = await loginHeadlessly(env);
    cliOutput.push(again.stdout, again.stderr);
    expect(again.code).toBe(0);
    fake.enqueue(callWhoami('toolu_who04'), text('Welcome back.'));
    expect(await turn(handle, 'and now?')).toMatchObject({ status: 'completed', text: 'Welcome back.' });
    expect(toolResultOf(fake, 'toolu_who04')).toMatchObject({ content: expect.stringMatching(/^hello, client /) as unknown });
    expect(toolResultOf(fake, 'toolu_who04')).not.toHaveProperty('is_error');
  }, 120_000);

  test('no token, code or client secret in any history, request to Claude, worker log or CLI output', async () => {
    const stored = JSON.parse(readFileSync(storePath, 'utf8')) as { servers: { demo: { client: { client_id: string; client_secret?: string } } } };
    const secrets = [...demo.provider.issued, ...(stored.servers.demo.client.client_secret !== undefined ? [stored.servers.demo.client.client_secret] : [])];
    // Two logins (a code and a token pair each) and a token pair per refresh: at least one refresh
    // (the expiry between two turns), a second one when a turn straddles the 2 s expiry. The client
    // registers as a public one (no secret) with this SDK's demo store. Counted this way rather than
    // as a minimum: a run with one refresh and no secret holds 8, and all of them are checked below.
    expect(demo.provider.refreshes).toBeGreaterThanOrEqual(1);
    expect(demo.provider.issued.length).toBe(2 * 3 + 2 * demo.provider.refreshes);
    const histories = await Promise.all(handles.map((h) => historyText(h)));
    // The histories read as text (payloads decoded): absence below means something.
    expect(histories.join('\n')).toContain('hello, client ');
    const requests = JSON.stringify(fake.requests.map((r) => r.body));
    const logs = workers.map((w) => w.output.join('')).join('\n');
    expect(logs).toContain('MCP server demo');
    expectNoneIn(secrets, { history: histories.join('\n'), 'requests to Claude': requests, 'worker log': logs, 'CLI output': cliOutput.join('\n') });
  }, 60_000);
});
