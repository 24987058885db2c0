/**
 * OAuth tokens for a fleet (issue 31): two compiled worker processes with separate homes (no file
 * they share) keep their OAuth tokens in the S3 token store (`MCP_HOST_OAUTH_STORE=s3://…`, a real
 * Versity Gateway), encrypted with the payload key. One `mcp-host login` (the compiled CLI, from a
 * third home, a "laptop"), then conversations on both workers call the protected server's tool
 * across several access-token expiries (2 s), first in turn and then both at the same instant.
 * From the authorization server's own log: each refresh token presented exactly once (none reused,
 * no invalid_grant), refreshes by both workers; every tool call succeeded; the bucket's objects
 * hold no token in clear, and no token is in a history, a worker's log or the CLI's output.
 *
 * The same runs for the file store shared by two worker processes (one machine, or a shared file
 * system), whose refreshes used to race: a worker's refresh now holds a lock file across the
 * token request there too.
 */
import { Client, Connection } from '@temporalio/client';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { MessageParam } from '../../src/conversation/types';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { dataConverter } from '../../src/temporal/data-converter';
import { sendMessageUpdate } from '../../src/workflows/definitions';
import { conversationWorkflow } from '../../src/workflows';
import { conversationOptions } from '../../src/client/conversation-options';
import { historyText, messagesOf, type ConversationHandle } from '../support/loop-helpers';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { expectNoneIn } from '../support/expect-none-in';
import { optionalServerTest } from '../support/optional-server';
import { startRotatingOAuthServer, WORKER_HEADER, type RotatingOAuthServer } from '../support/rotating-oauth-server';
import { S3_SERVER, s3ServerInstalled, startS3Server, type S3Server } from '../support/s3-server';
import { spawnWorkerProcess, waitForLine, type WorkerProcess } from '../support/worker-process';

const s3Test = optionalServerTest(S3_SERVER, s3ServerInstalled());
/** How long an access token lives: short, so the test outlasts several. */
const ACCESS_TOKEN_SECONDS = 2;
const PREFIX = 'fleet';
/**
 * How long the authorization server holds a refresh for a second one (rotating-oauth-server.ts):
 * without the refresh lease, two workers refreshing within this window both present the same
 * refresh token, and the second is refused.
 */
const REFRESH_BARRIER_MS = 2_500;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const text = (t: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text: t }], stop_reason: 'end_turn' });
const callWhoami = (id: string): ScriptStep => ({ kind: 'message', content: [{ type: 'tool_use', id, name: 'whoami', input: {} }], stop_reason: 'tool_use' });

/** The tool_result sent for `toolUseId`, from the last request to `fake`. */
function toolResultOf(fake: FakeMessagesApi, toolUseId: string): { content?: unknown; is_error?: boolean } | undefined {
  const messages: MessageParam[] = messagesOf(fake.requests[fake.requests.length - 1]);
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result' && block.tool_use_id === toolUseId) return block;
  }
  return undefined;
}

/** One machine of the fleet: its own home, mcp.json (naming it to the authorization server), fake Claude, task queue. */
interface Machine {
  name: string;
  home: string;
  mcpConfig: string;
  fake: FakeMessagesApi;
  taskQueue: string;
  worker?: WorkerProcess;
  handle?: ConversationHandle;
}

/** Where the fleet keeps its tokens: the S3 store (no shared file), or one file both processes reach. */
type StoreKind = 's3' | 'file';

describe.each<StoreKind>(['s3', 'file'])('OAuth tokens for a fleet: two worker processes on the %s token store (issue 31)', (kind) => {
  const fleetTest = kind === 's3' ? s3Test : test;
  let dir: string;
  let s3: S3Server | undefined;
  let demo: RotatingOAuthServer;
  let connection: Connection;
  let client: Client;
  let storeEnv: Record<string, string>;
  const machines: Machine[] = [];
  const cliOutput: string[] = [];
  const key = randomBytes(32).toString('base64');
  const savedKey = process.env.MCP_HOST_ENCRYPTION_KEY;
  let calls = 0;

  beforeAll(async () => {
    if (kind === 's3' && !s3ServerInstalled()) return;
    dir = mkdtempSync(path.join(os.tmpdir(), 'oauth-fleet-'));
    demo = await startRotatingOAuthServer(ACCESS_TOKEN_SECONDS, REFRESH_BARRIER_MS);
    if (kind === 'file') storeEnv = { MCP_HOST_OAUTH_STORE: path.join(dir, 'shared', 'oauth-tokens.json'), MCP_HOST_ENCRYPTION_KEY: key };
    else s3 = await startS3Server('mcp-host-oauth');
    const s3Env = s3?.env(PREFIX) ?? {};
    // The token store only (payloads stay in each worker's own directory): its own endpoint variable.
    if (s3 !== undefined) storeEnv = {
      MCP_HOST_OAUTH_STORE: `s3://${s3.bucket}/${PREFIX}`,
      MCP_HOST_OAUTH_S3_ENDPOINT: s3.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: s3Env.AWS_ACCESS_KEY_ID ?? '',
      AWS_SECRET_ACCESS_KEY: s3Env.AWS_SECRET_ACCESS_KEY ?? '',
      MCP_HOST_ENCRYPTION_KEY: key,
    };
    // The workers encrypt payloads with the same key: this client reads them with it.
    process.env.MCP_HOST_ENCRYPTION_KEY = key;
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    for (const name of ['A', 'B']) {
      const home = path.join(dir, `machine-${name}`);
      mkdirSync(home, { recursive: true });
      const mcpConfig = path.join(home, 'mcp.json');
      writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { demo: { url: demo.url, headers: { [WORKER_HEADER]: name } } } }));
      machines.push({ name, home, mcpConfig, fake: await startFakeMessagesApi({ mode: 'scripted', script: [] }), taskQueue: `oauth-fleet-${name}-${randomUUID()}` });
    }
  }, 60_000);
  afterAll(async () => {
    for (const m of machines) await m.worker?.stop();
    for (const m of machines) await m.fake.close();
    await connection?.close();
    await demo?.close();
    await s3?.stop();
    if (savedKey === undefined) delete process.env.MCP_HOST_ENCRYPTION_KEY;
    else process.env.MCP_HOST_ENCRYPTION_KEY = savedKey;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** `mcp-host login demo` from the laptop's home, the browser's part played by the test. */
  function loginHeadlessly(): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const laptop = path.join(dir, 'laptop');
    mkdirSync(laptop, { recursive: true });
    const mcpConfig = path.join(laptop, 'mcp.json');
    writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { demo: { url: demo.url, headers: { [WORKER_HEADER]: 'login' } } } }));
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/mcp-host.js'), 'login', 'demo'], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: laptop, XDG_CONFIG_HOME: path.join(laptop, '.config'), MCP_CONFIG: mcpConfig, ...storeEnv },
      });
      let stdout = '';
      let stderr = '';
      let followed = false;
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stdout)?.[1];
        if (url !== undefined && !followed) {
          followed = true;
          fetch(url).then((r) => r.text()).catch(reject);
        }
      });
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** One turn on `m`'s conversation that calls whoami; the tool result must be the server's answer. */
  async function toolTurn(m: Machine): Promise<void> {
    calls += 1;
    const id = `toolu_fleet${String(calls).padStart(3, '0')}`;
    m.fake.enqueue(callWhoami(id), text(`done ${id}`));
    const handle = m.handle;
    if (handle === undefined) throw new Error('no conversation');
    expect(await handle.executeUpdate(sendMessageUpdate, { args: [`who am I? (${id})`] })).toMatchObject({ status: 'completed', text: `done ${id}` });
    const result = toolResultOf(m.fake, id);
    expect(result?.is_error).toBeUndefined();
    expect(result?.content).toEqual(expect.stringMatching(/^hello, client /));
  }

  fleetTest('one login from a laptop writes the store; both workers, each with its own home, start with the server’s tool', async () => {
    const run = await loginHeadlessly();
    cliOutput.push(run.stdout, run.stderr);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Logged in to "demo": 1 tool; tokens stored in ${storeEnv.MCP_HOST_OAUTH_STORE ?? ''}`);
    for (const m of machines) {
      m.worker = await spawnWorkerProcess({
        address: temporalAddress(),
        taskQueue: m.taskQueue,
        mcpConfigPath: m.mcpConfig,
        claudeBaseUrl: m.fake.url,
        env: { HOME: m.home, XDG_CONFIG_HOME: path.join(m.home, '.config'), MCP_HOST_PAYLOAD_DIR: path.join(m.home, 'payloads'), ...storeEnv },
      });
      expect(await waitForLine(m.worker, /MCP server demo: .*/)).toBe('MCP server demo: 1 tool');
      m.handle = await client.workflow.start(conversationWorkflow, {
        taskQueue: m.taskQueue,
        workflowId: `oauth-fleet-${m.name}-${randomUUID()}`,
        args: [{ options: conversationOptions({ promptCache: { enabled: false } }) }],
      });
    }
  }, 120_000);

  fleetTest('tool calls on both workers in turn, across several access-token expiries: both refresh, each refresh token spent once', async () => {
    for (let round = 0; round < 3; round++) {
      for (const m of machines) {
        await sleep(ACCESS_TOKEN_SECONDS * 1000 + 300);
        await toolTurn(m);
      }
    }
    const grants = demo.provider.grants;
    console.log(`${kind} store, refresh grants in turn: ${grants.map((g) => `${g.worker}:${g.accepted ? 'ok' : 'REFUSED'}`).join(' ')}`);
    expect(grants.filter((g) => !g.accepted)).toEqual([]);
    expect(new Set(grants.map((g) => g.presented)).size).toBe(grants.length);
    // Both workers refreshed (the login's own check may have refreshed once too, on a slow machine).
    expect([...new Set(grants.map((g) => g.worker))].sort()).toEqual(expect.arrayContaining(['A', 'B']));
    expect(grants.every((g) => ['A', 'B', 'login'].includes(g.worker))).toBe(true);
    expect(grants.length).toBeGreaterThanOrEqual(6);
  }, 180_000);

  fleetTest('both workers forced to refresh at the same instant, three times: still each refresh token spent once, no invalid_grant', async () => {
    const before = demo.provider.grants.length;
    for (let round = 0; round < 3; round++) {
      await sleep(ACCESS_TOKEN_SECONDS * 1000 + 300);
      await Promise.all(machines.map((m) => toolTurn(m)));
    }
    const grants = demo.provider.grants;
    console.log(`${kind} store, refresh grants at the same instant: ${grants.slice(before).map((g) => `${g.worker}:${g.accepted ? 'ok' : 'REFUSED'}`).join(' ')}`);
    expect(grants.filter((g) => !g.accepted)).toEqual([]);
    expect(new Set(grants.map((g) => g.presented)).size).toBe(grants.length);
    // Every refresh token presented was one this server issued, and only the newest is unspent.
    for (const g of grants) expect(demo.provider.refreshTokens).toContain(g.presented);
    expect(grants.length).toBe(demo.provider.refreshTokens.length - 1);
    // Each round both workers needed fresh tokens within the barrier's window; the one that lost
    // the race to the lease used the winner's tokens instead of refreshing again: one grant a
    // round as a rule (fewer than two a round at most). Without the lease both present the same
    // token, the second is refused, and that worker's call ends as an is_error (toolTurn fails).
    expect(grants.length - before).toBeGreaterThanOrEqual(3);
    expect(grants.length - before).toBeLessThan(2 * 3);
  }, 180_000);

  fleetTest('no token in a history, a worker log or the CLI output; on S3, the bucket holds one sealed object for the server (no token in it) and no lease left over', async () => {
    const logs = machines.map((m) => m.worker?.output.join('') ?? '').join('\n');
    expect(logs).toContain('MCP server demo');
    // The histories read as text (payloads decrypted and decoded): absence below means something.
    const handles = machines.flatMap((m) => (m.handle !== undefined ? [m.handle] : []));
    const histories = (await Promise.all(handles.map((h) => historyText(h)))).join('\n');
    expect(histories).toContain('hello, client ');
    expectNoneIn(demo.provider.issued, { history: histories, 'worker log': logs, 'CLI output': cliOutput.join('\n') });
    if (s3 === undefined) return;
    const objects = await s3.list(`${PREFIX}/`);
    console.log(`objects in the bucket: ${objects.map((o) => `${o.Key ?? ''} (${o.Size ?? 0} bytes)`).join(', ')}`);
    expect(objects.map((o) => o.Key)).toEqual([`${PREFIX}/oauth/demo.json`]);
    const env = s3.env(PREFIX);
    const raw = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '' } });
    const body = (await (await raw.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${PREFIX}/oauth/demo.json` }))).Body?.transformToString()) ?? '';
    raw.destroy();
    expect(body).toContain('"cipher":"AES-256-GCM"');
    expectNoneIn(demo.provider.issued, { 'the S3 object': body });
    for (const fragment of ['"at-', '"rt-', 'access_token', 'refresh_token']) expect(body).not.toContain(fragment);
  }, 60_000);
});
