/**
 * OAuth with no person end to end: client credentials (mcp.json `"grant": "client_credentials"`)
 * and workload identity (`"grant": "jwt_bearer"`); an authorization server that issues tokens by
 * those two grants only and an MCP server on another origin that takes only its Bearer tokens
 * (test/fixtures/client-credentials-server.ts); the compiled worker as its own process;
 * conversations on the real dev server with the fake Messages API. Four servers of one mcp.json,
 * one per credential kind: a client secret from a `${VAR}` sent `client_secret_basic`, one from
 * `clientSecretFile` sent `client_secret_post`, an ES256 key from `privateKeyFile` signing RFC 7523
 * assertions (`private_key_jwt`), and a workload's identity token from `assertionFile`, signed by
 * its platform (an ES256 key of the test's), sent as the JWT-bearer grant's assertion.
 *
 * It shows: each worker (and `mcp-host tools`) gets its own tokens with no login, each client
 * authenticating the way it is configured; the tools run; a token expiring between two turns is
 * replaced by a new grant; the workload's grant carries exactly its file's token and no client
 * authentication, and a token rotated into the file is used at the next grant, without a restart;
 * an expired one reaches Claude as the host's `is_error` result after one token request, and a
 * fresh one mends it, without a restart; `mcp-host login` says none is needed, `mcp-host servers`
 * names each server's auth; a secret the authorization server no longer accepts reaches Claude as
 * the host's `is_error` result, and a restart with the new secret mends it; a wrong secret from the
 * start leaves the server out of the catalogue with a warning while the turn goes on with the other
 * server; and no token, assertion, client secret or private key in any history (decoded with the
 * data converter), request to Claude, worker log or CLI output.
 */
import { Client, Connection } from '@temporalio/client';
import { generateKeyPairSync, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { dataConverter } from '../../src/temporal/data-converter';
import { sendMessageUpdate } from '../../src/workflows/definitions';
import { conversationWorkflow } from '../../src/workflows';
import { conversationOptions } from '../../src/client/conversation-options';
import { startClientCredentialsServer, type ClientCredentialsServer, type TokenRequestRecord } from '../fixtures/client-credentials-server';
import { runCliProcess, type CliRun } from '../support/cli-process';
import { historyText, messagesOf, type ConversationHandle } from '../support/loop-helpers';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { expectNoneIn } from '../support/expect-none-in';
import { spawnWorkerProcess, waitForLine, type WorkerProcess } from '../support/worker-process';

/** How long an access token lives: short, so the test can wait it out between two turns. */
const ACCESS_TOKEN_SECONDS = 2;
const WEATHER = path.join(REPO_ROOT, 'dist/example-servers/weather/main.js');
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The workload's platform, which issues its identity tokens (a Kubernetes API server, here). */
const PLATFORM_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** The workload, as its platform names it: the tokens' `sub`, and whom the MCP server sees calling. */
const WORKLOAD = 'system:serviceaccount:agents:mcp-host';

const secret = (): string => `cs-${randomBytes(24).toString('base64url')}`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text: t }], stop_reason: 'end_turn' });
const callTools = (...calls: Array<[id: string, name: string]>): ScriptStep => ({
  kind: 'message',
  content: calls.map(([id, name]) => ({ type: 'tool_use' as const, id, name, input: {} })),
  stop_reason: 'tool_use',
});

/**
 * An identity token of the workload's platform, as a Kubernetes projected service-account token is:
 * ES256, for the audience `audience`, expiring `expiresIn` seconds from now (negative: expired).
 */
function platformToken(key: KeyObject, audience: string, expiresIn: number): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ alg: 'ES256', typ: 'JWT', kid: 'platform-1' })}.${part({ iss: PLATFORM_ISSUER, sub: WORKLOAD, aud: [audience], iat: now, nbf: now, exp: now + expiresIn, jti: randomUUID() })}`;
  return `${signed}.${sign('sha256', Buffer.from(signed), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

type ToolResult = Extract<ContentBlockParam, { type: 'tool_result' }>;

/** The tool_result the workflow sent for `toolUseId`, from the last request to Claude. */
function toolResultOf(fake: FakeMessagesApi, toolUseId: string): ToolResult | undefined {
  const messages: MessageParam[] = messagesOf(fake.requests[fake.requests.length - 1]);
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result' && block.tool_use_id === toolUseId) return block;
  }
  return undefined;
}

/** The tool names offered in the last request to Claude. */
function offeredTools(fake: FakeMessagesApi): string[] {
  return (fake.requests[fake.requests.length - 1]?.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
}

describe('OAuth client credentials (no person), end to end', () => {
  let dir: string;
  let cc: ClientCredentialsServer;
  let fake: FakeMessagesApi;
  let client: Client;
  let connection: Connection;
  let mcpConfig: string;
  let secretFile: string;
  let keyFile: string;
  let assertionFile: string;
  let workerEnv: Record<string, string>;
  const basicSecret = secret();
  const postSecret = secret();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  /** The key the workload's platform signs its identity tokens with (never the host's). */
  const platform = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  /** Every credential the host was given or handed out, looked for everywhere at the end. */
  const credentials: string[] = [basicSecret, postSecret];
  /** Every identity token of the workload's, in the order they were written to its file (each in credentials too). */
  const workloadTokens: string[] = [];
  const currentWorkloadToken = (): string => workloadTokens[workloadTokens.length - 1] ?? '';
  const workers: WorkerProcess[] = [];
  const handles: ConversationHandle[] = [];
  const cliOutput: string[] = [];
  const taskQueue = `oauth-cc-${randomUUID()}`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'oauth-cc-'));
    cc = await startClientCredentialsServer(
      [
        { clientId: 'fleet-basic', method: 'client_secret_basic', secret: basicSecret },
        { clientId: 'fleet-post', method: 'client_secret_post', secret: postSecret },
        { clientId: 'fleet-jwt', method: 'private_key_jwt', publicKey },
      ],
      ACCESS_TOKEN_SECONDS,
      [{ platformIssuer: PLATFORM_ISSUER, publicKey: platform.publicKey, subject: WORKLOAD }],
    );
    fake = await startFakeMessagesApi({ mode: 'scripted', script: [] });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    secretFile = path.join(dir, 'fleet-post.secret');
    writeFileSync(secretFile, `${postSecret}\n`, { mode: 0o600 });
    keyFile = path.join(dir, 'fleet-jwt.pem');
    writeFileSync(keyFile, pem, { mode: 0o600 });
    assertionFile = path.join(dir, 'tokens', 'mcp');
    mkdirSync(path.dirname(assertionFile));
    writeWorkloadToken(600);
    const grant = { grant: 'client_credentials', issuer: cc.issuer };
    mcpConfig = path.join(dir, 'mcp.json');
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: {
          basic: { url: cc.mcpUrl, oauth: { ...grant, clientId: 'fleet-basic', clientSecret: '${FLEET_BASIC_SECRET}' } },
          post: { url: cc.mcpUrl, oauth: { ...grant, clientId: 'fleet-post', clientSecretFile: secretFile, tokenEndpointAuthMethod: 'client_secret_post' } },
          jwt: { url: cc.mcpUrl, oauth: { ...grant, clientId: 'fleet-jwt', privateKeyFile: keyFile } },
          wif: { url: cc.mcpUrl, oauth: { grant: 'jwt_bearer', assertionFile, issuer: cc.issuer } },
        },
      }),
    );
    workerEnv = { FLEET_BASIC_SECRET: basicSecret };
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await connection?.close();
    await fake?.close();
    await cc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function startWorker(options: { config?: string; env?: Record<string, string>; queue?: string } = {}): Promise<WorkerProcess> {
    const worker = await spawnWorkerProcess({
      address: temporalAddress(),
      taskQueue: options.queue ?? taskQueue,
      mcpConfigPath: options.config ?? mcpConfig,
      claudeBaseUrl: fake.url,
      env: options.env ?? workerEnv,
    });
    workers.push(worker);
    return worker;
  }

  async function newConversation(queue = taskQueue): Promise<ConversationHandle> {
    const handle = await client.workflow.start(conversationWorkflow, {
      taskQueue: queue,
      workflowId: `oauth-cc-${randomUUID()}`,
      args: [{ options: conversationOptions({ promptCache: { enabled: false } }) }],
    });
    handles.push(handle);
    return handle;
  }

  async function turn(handle: ConversationHandle, message: string): Promise<{ status: string; text: string }> {
    return handle.executeUpdate(sendMessageUpdate, { args: [message] });
  }

  /** Writes a new identity token of the workload into its file, as its platform rotates it. */
  function writeWorkloadToken(expiresIn: number): string {
    const token = platformToken(platform.privateKey, cc.issuer, expiresIn);
    credentials.push(token);
    workloadTokens.push(token);
    writeFileSync(assertionFile, `${token}\n`, { mode: 0o600 });
    return token;
  }

  const requestsOf = (clientId: string): TokenRequestRecord[] => cc.requests.filter((r) => r.clientId === clientId);
  const workloadRequests = (): TokenRequestRecord[] => cc.requests.filter((r) => r.grantType === JWT_BEARER);
  const issuedTo = (clientId: string): number => requestsOf(clientId).filter((r) => r.outcome === 'issued').length;
  /** What every token request of a well-configured client looks like. */
  const expectedGrant = (clientId: string, method: string): Partial<TokenRequestRecord> => ({
    clientId,
    method: method as TokenRequestRecord['method'],
    grantType: 'client_credentials',
    scope: 'mcp:tools',
    resource: cc.mcpUrl,
    outcome: 'issued',
  });
  /** Every token request of the workload, its file holding `token`: that assertion, no client authentication, no client ID. */
  const workloadGrant = (token: string, outcome = 'issued'): TokenRequestRecord => ({
    clientId: undefined,
    method: 'none',
    grantType: JWT_BEARER,
    scope: 'mcp:tools',
    resource: cc.mcpUrl,
    alg: 'ES256',
    aud: [cc.issuer],
    subject: WORKLOAD,
    assertion: token,
    outcome,
  });

  let worker: WorkerProcess;
  test('at start each server gets a token with its own credential and the way it is configured, no login', async () => {
    worker = await startWorker();
    for (const name of ['basic', 'post', 'jwt', 'wif']) {
      expect(await waitForLine(worker, new RegExp(`MCP server ${name}: .*`))).toBe(`MCP server ${name}: 1 tool`);
    }
    expect(cc.requests.length).toBeGreaterThanOrEqual(4);
    for (const [clientId, method] of [
      ['fleet-basic', 'client_secret_basic'],
      ['fleet-post', 'client_secret_post'],
      ['fleet-jwt', 'private_key_jwt'],
    ] as const) {
      expect(requestsOf(clientId).length).toBeGreaterThanOrEqual(1);
      for (const request of requestsOf(clientId)) expect(request).toMatchObject(expectedGrant(clientId, method));
    }
    expect(workloadRequests().length).toBeGreaterThanOrEqual(1);
    for (const request of workloadRequests()) expect(request).toEqual(workloadGrant(currentWorkloadToken()));
    // Every request the token endpoint saw came from one of the four, successfully.
    expect(cc.requests.filter((r) => r.outcome !== 'issued')).toEqual([]);
    expect(cc.requests.length).toBe(requestsOf('fleet-basic').length + requestsOf('fleet-post').length + requestsOf('fleet-jwt').length + workloadRequests().length);
  }, 90_000);

  test('client_secret_basic, the secret from ${VAR}: the tool runs; the token expires between two turns and a new grant replaces it', async () => {
    const handle = await newConversation();
    fake.enqueue(callTools(['toolu_basic01', 'basic__whoami']), text('You are fleet-basic.'));
    expect(await turn(handle, 'who am I?')).toMatchObject({ status: 'completed', text: 'You are fleet-basic.' });
    expect(toolResultOf(fake, 'toolu_basic01')).toEqual({ type: 'tool_result', tool_use_id: 'toolu_basic01', content: 'hello, client fleet-basic' });

    const grantsBefore = issuedTo('fleet-basic');
    const refusedBefore = cc.refusedBearers;
    const tokenBefore = cc.bearers[cc.bearers.length - 1];
    await sleep(ACCESS_TOKEN_SECONDS * 1000 + 500);
    fake.enqueue(callTools(['toolu_basic02', 'basic__whoami']), text('Still fleet-basic.'));
    expect(await turn(handle, 'and now?')).toMatchObject({ status: 'completed', text: 'Still fleet-basic.' });
    expect(toolResultOf(fake, 'toolu_basic02')).toMatchObject({ content: 'hello, client fleet-basic' });
    expect(toolResultOf(fake, 'toolu_basic02')).not.toHaveProperty('is_error');
    // The expired token was refused (401), and one new grant (no refresh token in this grant) replaced it.
    expect(cc.refusedBearers).toBeGreaterThan(refusedBefore);
    expect(issuedTo('fleet-basic')).toBe(grantsBefore + 1);
    expect(cc.bearers[cc.bearers.length - 1]).not.toBe(tokenBefore);
    for (const request of requestsOf('fleet-basic')) expect(request).toMatchObject(expectedGrant('fleet-basic', 'client_secret_basic'));
  }, 90_000);

  test('client_secret_post, the secret from clientSecretFile: the tool runs, the secret goes in the form body only', async () => {
    const handle = await newConversation();
    fake.enqueue(callTools(['toolu_post01', 'post__whoami']), text('You are fleet-post.'));
    expect(await turn(handle, 'who am I?')).toMatchObject({ status: 'completed', text: 'You are fleet-post.' });
    expect(toolResultOf(fake, 'toolu_post01')).toMatchObject({ content: 'hello, client fleet-post' });
    expect(toolResultOf(fake, 'toolu_post01')).not.toHaveProperty('is_error');
    for (const request of requestsOf('fleet-post')) expect(request).toMatchObject(expectedGrant('fleet-post', 'client_secret_post'));
  }, 90_000);

  test('private_key_jwt, an ES256 key from privateKeyFile: the tool runs; each token request carries a fresh assertion for this issuer', async () => {
    const handle = await newConversation();
    fake.enqueue(callTools(['toolu_jwt01', 'jwt__whoami']), text('You are fleet-jwt.'));
    expect(await turn(handle, 'who am I?')).toMatchObject({ status: 'completed', text: 'You are fleet-jwt.' });
    expect(toolResultOf(fake, 'toolu_jwt01')).toMatchObject({ content: 'hello, client fleet-jwt' });
    expect(toolResultOf(fake, 'toolu_jwt01')).not.toHaveProperty('is_error');
    const requests = requestsOf('fleet-jwt');
    for (const request of requests) expect(request).toMatchObject({ ...expectedGrant('fleet-jwt', 'private_key_jwt'), alg: 'ES256', aud: cc.issuer });
    // The authorization server refuses a replayed jti, so every issued token had its own assertion.
    expect(new Set(cc.assertions).size).toBe(cc.assertions.length);
    expect(cc.assertions.length).toBe(requests.length);
  }, 90_000);

  test('workload identity, the platform’s token from assertionFile: the tool runs; each grant carries exactly the file’s token and no client authentication', async () => {
    const handle = await newConversation();
    fake.enqueue(callTools(['toolu_wif01', 'wif__whoami']), text('You are the workload.'));
    expect(await turn(handle, 'who am I?')).toMatchObject({ status: 'completed', text: 'You are the workload.' });
    expect(toolResultOf(fake, 'toolu_wif01')).toEqual({ type: 'tool_result', tool_use_id: 'toolu_wif01', content: `hello, client ${WORKLOAD}` });
    expect(workloadRequests().length).toBeGreaterThanOrEqual(1);
    for (const request of workloadRequests()) expect(request).toEqual(workloadGrant(currentWorkloadToken()));
  }, 90_000);

  test('workload identity: a token the platform rotates into the file is the next grant’s assertion, without a restart', async () => {
    const handle = await newConversation();
    const rotated = writeWorkloadToken(600);
    const before = workloadRequests().length;
    await sleep(ACCESS_TOKEN_SECONDS * 1000 + 500);
    fake.enqueue(callTools(['toolu_wif02', 'wif__whoami']), text('Still the workload.'));
    expect(await turn(handle, 'and now?')).toMatchObject({ status: 'completed', text: 'Still the workload.' });
    expect(toolResultOf(fake, 'toolu_wif02')).toEqual({ type: 'tool_result', tool_use_id: 'toolu_wif02', content: `hello, client ${WORKLOAD}` });
    // The access token expired; one new grant, with the file as it is now.
    expect(workloadRequests().slice(before)).toEqual([workloadGrant(rotated)]);
  }, 90_000);

  test('workload identity: an expired token in the file reaches Claude as the host’s is_error after one token request; a fresh one mends it, without a restart', async () => {
    const handle = await newConversation();
    const expired = writeWorkloadToken(-60);
    const before = workloadRequests().length;
    await sleep(ACCESS_TOKEN_SECONDS * 1000 + 500);
    fake.enqueue(callTools(['toolu_wif03', 'wif__whoami']), text('The workload was refused.'));
    expect(await turn(handle, 'who am I?')).toMatchObject({ status: 'completed', text: 'The workload was refused.' });
    // Typed and final: the same token would get the same answer (src/errors/classify-error.ts).
    expect(toolResultOf(fake, 'toolu_wif03')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_wif03',
      content: expect.stringMatching(/^\[host\] Tool "wif__whoami" could not be run: mcp\.auth_failed: .*\(invalid_grant\): the assertion has expired/) as unknown,
      is_error: true,
    });
    // Sent once (SEP-1933): neither the SDK's start-over nor the activity's retry asked again.
    expect(workloadRequests().slice(before)).toEqual([workloadGrant(expired, 'invalid_grant')]);

    const fresh = writeWorkloadToken(600);
    const mendBefore = workloadRequests().length;
    fake.enqueue(callTools(['toolu_wif04', 'wif__whoami']), text('Back.'));
    expect(await turn(handle, 'once more')).toMatchObject({ status: 'completed', text: 'Back.' });
    expect(toolResultOf(fake, 'toolu_wif04')).toEqual({ type: 'tool_result', tool_use_id: 'toolu_wif04', content: `hello, client ${WORKLOAD}` });
    expect(workloadRequests().slice(mendBefore)).toEqual([workloadGrant(fresh)]);
  }, 90_000);

  test('the CLI: `login` says no login is needed; `tools` runs the grant itself; history, status and tools ID', async () => {
    const env = { MCP_CONFIG: mcpConfig, TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue, ...workerEnv };
    const requestsBefore = cc.requests.length;
    const login: CliRun = await runCliProcess(['login', 'basic'], env);
    cliOutput.push(login.stdout, login.stderr);
    expect(login.code).toBe(1);
    expect(login.stdout).toBe('');
    expect(login.stderr.trim()).toBe(
      'mcp-host: server "basic" uses the client-credentials grant: every worker gets its own tokens with the client\'s credential, no login is needed',
    );
    const loginWif = await runCliProcess(['login', 'wif'], env);
    cliOutput.push(loginWif.stdout, loginWif.stderr);
    expect(loginWif.code).toBe(1);
    expect(loginWif.stderr.trim()).toBe(
      'mcp-host: server "wif" uses workload identity (the JWT-bearer grant): every worker gets its own tokens with its platform\'s identity token, no login is needed',
    );
    expect(cc.requests.length).toBe(requestsBefore);

    const tools = await runCliProcess(['tools', '--verbose'], env);
    cliOutput.push(tools.stdout, tools.stderr);
    expect(tools.code).toBe(0);
    for (const name of ['basic__whoami', 'post__whoami', 'jwt__whoami', 'wif__whoami']) expect(tools.stdout).toContain(name);
    // The CLI process had no token: it got one per server, each client (and the workload) its own way.
    const cliRequests = cc.requests.slice(requestsBefore);
    expect(cliRequests.map((r) => r.clientId ?? r.subject).sort()).toEqual(['fleet-basic', 'fleet-jwt', 'fleet-post', WORKLOAD]);
    expect(cliRequests.every((r) => r.outcome === 'issued')).toBe(true);
    expect(cliRequests.filter((r) => r.grantType === JWT_BEARER)).toEqual([workloadGrant(currentWorkloadToken())]);

    const serversBefore = cc.requests.length;
    const servers = await runCliProcess(['servers', '--json'], env);
    cliOutput.push(servers.stdout, servers.stderr);
    expect(servers.code).toBe(0);
    const rows = JSON.parse(servers.stdout) as Array<{ name: string; health: string; auth: string }>;
    expect(rows.map(({ name, health, auth }) => ({ name, health, auth }))).toEqual([
      { name: 'basic', health: 'connected', auth: 'client credentials' },
      { name: 'post', health: 'connected', auth: 'client credentials' },
      { name: 'jwt', health: 'connected', auth: 'client credentials' },
      { name: 'wif', health: 'connected', auth: 'workload identity' },
    ]);
    expect(cc.requests.slice(serversBefore).filter((r) => r.outcome !== 'issued')).toEqual([]);

    for (const handle of handles) {
      for (const args of [['history', handle.workflowId], ['status', handle.workflowId], ['tools', handle.workflowId]]) {
        const run = await runCliProcess(args, env);
        cliOutput.push(run.stdout, run.stderr);
        expect({ args, code: run.code }).toEqual({ args, code: 0 });
      }
    }
    expect(cliOutput.join('\n')).toContain('hello, client fleet-jwt');
  }, 90_000);

  test('a secret the authorization server stops accepting: the call reaches Claude as the host’s is_error; a restart with the new secret mends it', async () => {
    const handle = await newConversation();
    fake.enqueue(callTools(['toolu_ok01', 'basic__whoami']), text('Fine.'));
    expect(await turn(handle, 'who am I?')).toMatchObject({ status: 'completed' });
    expect(toolResultOf(fake, 'toolu_ok01')).not.toHaveProperty('is_error');

    // Rotated at the authorization server; the workers still hold the old ones (env and file).
    const newBasic = secret();
    const newPost = secret();
    credentials.push(newBasic, newPost);
    cc.register({ clientId: 'fleet-basic', method: 'client_secret_basic', secret: newBasic });
    cc.register({ clientId: 'fleet-post', method: 'client_secret_post', secret: newPost });
    writeFileSync(secretFile, `${newPost}\n`);
    await sleep(ACCESS_TOKEN_SECONDS * 1000 + 500);
    const refusedBefore = cc.requests.filter((r) => r.outcome === 'invalid_client').length;
    fake.enqueue(callTools(['toolu_bad01', 'basic__whoami'], ['toolu_bad02', 'post__whoami']), text('The server refused us.'));
    expect(await turn(handle, 'and now?')).toMatchObject({ status: 'completed', text: 'The server refused us.' });
    for (const [id, name] of [['toolu_bad01', 'basic__whoami'], ['toolu_bad02', 'post__whoami']] as const) {
      const failed = toolResultOf(fake, id);
      // Typed and final: the same credential would get the same answer (src/errors/classify-error.ts).
      expect(failed).toEqual({
        type: 'tool_result',
        tool_use_id: id,
        content: expect.stringMatching(new RegExp(`^\\[host\\] Tool "${name}" could not be run: mcp\\.auth_failed: .*\\(invalid_client\\): client authentication failed`)) as unknown,
        is_error: true,
      });
    }
    // Not retried: one attempt per call, which asks twice (the SDK tries again once after invalid_client).
    const refused = cc.requests.filter((r) => r.outcome === 'invalid_client').length - refusedBefore;
    expect(refused).toBeGreaterThanOrEqual(2);
    expect(refused).toBeLessThanOrEqual(2 * 2);

    // The file was read when the connection opened: a restart reads both new secrets.
    await worker.stop();
    workerEnv = { FLEET_BASIC_SECRET: newBasic };
    const requestsBefore = cc.requests.length;
    worker = await startWorker();
    fake.enqueue(callTools(['toolu_new01', 'basic__whoami'], ['toolu_new02', 'post__whoami']), text('Back.'));
    expect(await turn(handle, 'once more')).toMatchObject({ status: 'completed', text: 'Back.' });
    expect(toolResultOf(fake, 'toolu_new01')).toMatchObject({ content: 'hello, client fleet-basic' });
    expect(toolResultOf(fake, 'toolu_new02')).toMatchObject({ content: 'hello, client fleet-post' });
    expect(cc.requests.slice(requestsBefore).filter((r) => r.outcome !== 'issued')).toEqual([]);
  }, 120_000);

  test('a wrong secret from the start: the server is left out of the catalogue with a warning; the turn goes on with the other server', async () => {
    const wrong = secret();
    credentials.push(wrong);
    const config = path.join(dir, 'mcp-wrong.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          weather: { command: process.execPath, args: [WEATHER] },
          wrong: { url: cc.mcpUrl, oauth: { grant: 'client_credentials', issuer: cc.issuer, clientId: 'fleet-basic', clientSecret: '${WRONG_SECRET}' } },
        },
      }),
    );
    const queue = `oauth-cc-wrong-${randomUUID()}`;
    const requestsBefore = cc.requests.length;
    const wrongWorker = await startWorker({ config, env: { WRONG_SECRET: wrong }, queue });
    expect(await waitForLine(wrongWorker, /MCP server wrong: .*/)).toBe('MCP server wrong: unavailable (cannot connect to MCP server "wrong": client authentication failed)');
    const attempts = cc.requests.slice(requestsBefore);
    expect(attempts.length).toBeGreaterThan(0);
    for (const request of attempts) expect(request).toMatchObject({ clientId: 'fleet-basic', method: 'client_secret_basic', outcome: 'invalid_client' });

    const handle = await newConversation(queue);
    fake.enqueue(text('Only the weather tools today.'));
    expect(await turn(handle, 'what can you do?')).toMatchObject({ status: 'completed', text: 'Only the weather tools today.' });
    const tools = offeredTools(fake);
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter((name) => name.endsWith('whoami'))).toEqual([]);
    expect(wrongWorker.output.join('')).toContain('[mcp:wrong] warning: its tools are left out of this turn\'s catalogue: cannot connect to MCP server "wrong": client authentication failed');

    const cli = await runCliProcess(['tools'], { MCP_CONFIG: config, WRONG_SECRET: wrong });
    cliOutput.push(cli.stdout, cli.stderr);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('get_weather');
    expect(cli.stderr).toContain('mcp-host: server "wrong" is unavailable, its tools are not listed: cannot connect to MCP server "wrong": client authentication failed');
    await wrongWorker.stop();
  }, 90_000);

  test('no token, assertion, client secret or private key in any history, request to Claude, worker log or CLI output', async () => {
    const body = pem.split('\n').filter((l) => !l.startsWith('-----') && l.length >= 24);
    expect(body.length).toBeGreaterThanOrEqual(2);
    const jwk = privateKey.export({ format: 'jwk' });
    const secrets = [...credentials, ...cc.issued, ...cc.assertions, ...body, body.join(''), jwk.d ?? ''];
    // Counted, so that an empty list cannot pass: three secrets at least, tokens for every grant.
    expect(cc.issued.length).toBe(cc.requests.filter((r) => r.outcome === 'issued').length);
    expect(cc.issued.length).toBeGreaterThanOrEqual(8);
    expect(cc.assertions.length).toBeGreaterThanOrEqual(2);
    // Every identity token written to the workload's file (all in credentials) went to the authorization server.
    expect(workloadTokens.length).toBe(4);
    expect(new Set(workloadRequests().map((r) => r.assertion))).toEqual(new Set(workloadTokens));
    const histories = await Promise.all(handles.map((h) => historyText(h)));
    // The histories read as text (payloads decoded): absence below means something.
    expect(histories.join('\n')).toContain('hello, client fleet-post');
    const requests = JSON.stringify(fake.requests);
    const logs = workers.map((w) => w.output.join('')).join('\n');
    expect(logs).toContain('MCP server jwt');
    for (const value of secrets) expect(value.length).toBeGreaterThanOrEqual(24);
    expectNoneIn(secrets, { history: histories.join('\n'), 'requests to Claude': requests, 'worker log': logs, 'CLI output': cliOutput.join('\n') });
  }, 60_000);
});
