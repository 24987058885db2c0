/**
 * Payload encryption end to end (issue 10), with real processes: the compiled worker and the
 * compiled CLI with `MCP_HOST_ENCRYPTION_*` in their environment, the real dev server, real MCP
 * servers, the fake Messages API. A multi-tool conversation completes; `temporal workflow show`
 * holds none of its plaintext (every payload is `binary/encrypted`, and decoding the payloads raw,
 * base64 and gzip, without the key finds nothing); `mcp-host codec-server` gives the plaintext back
 * with CORS for the Web UI; `mcp-host tools ID` reads the conversation's catalogue through the key.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { runCommand } from '../../src/temporal/run-command';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { runCliProcess, type CliRun } from '../support/cli-process';
import { REPO_ROOT, tsServer, weatherServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

const KEY = randomBytes(32).toString('base64');
const UI_ORIGIN = 'http://127.0.0.1:8233';
const mark = randomUUID().slice(0, 8);
/** The conversation's plaintext that must never be readable in the history. */
const USER_MESSAGE = `天气和回声 user-plaintext-${mark}`;
const TOOL_ARGUMENT = `tool-argument-plaintext-${mark}`;
const ANSWER = `北京晴 answer-plaintext-${mark}`;
const TOOL_RESULT = '北京今天晴，25°C';
const PLAINTEXTS = [USER_MESSAGE, TOOL_ARGUMENT, ANSWER, TOOL_RESULT, `user-plaintext-${mark}`, `answer-plaintext-${mark}`];

/** A payload as `temporal workflow show --output json` prints an encoded one. */
interface RawPayload {
  metadata?: Record<string, string>;
  data?: string;
}

/** Every `{metadata, data}` object in a JSON tree, with where it was. */
function payloadsIn(value: unknown, where = '$', found: Array<{ where: string; payload: RawPayload }> = []): Array<{ where: string; payload: RawPayload }> {
  if (Array.isArray(value)) value.forEach((item, i) => payloadsIn(item, `${where}[${i}]`, found));
  else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.metadata === 'object' && record.metadata !== null && 'encoding' in record.metadata) found.push({ where, payload: record });
    else for (const [key, item] of Object.entries(record)) payloadsIn(item, `${where}.${key}`, found);
  }
  return found;
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const unb64 = (text: string | undefined): Buffer => Buffer.from(text ?? '', 'base64');

/** Everything a reader without the key can get out of a history's text: raw, base64-decoded, gunzipped. */
function readableWithoutKey(historyText: string): string {
  const parts = [historyText];
  for (const { payload } of payloadsIn(JSON.parse(historyText))) {
    const data = unb64(payload.data);
    parts.push(data.toString('utf8'), ...Object.values(payload.metadata ?? {}).map((v) => unb64(v).toString('utf8')));
    try {
      parts.push(zlib.gunzipSync(data).toString('utf8'));
    } catch {
      // not gzip: what we expect of ciphertext
    }
  }
  return parts.join('\n');
}

describe('payload encryption with real worker and CLI processes', () => {
  let fake: FakeMessagesApi;
  let worker: WorkerProcess;
  let codecServer: ChildProcess | undefined;
  const taskQueue = `encryption-${randomUUID()}`;
  const payloadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-enc-payloads-'));
  const keyEnv = { MCP_HOST_ENCRYPTION_KEY: KEY, MCP_HOST_ENCRYPTION_KEY_ID: 'test-key-1', MCP_HOST_PAYLOAD_DIR: payloadDir };
  const cli = (args: string[], env: Record<string, string> = keyEnv): Promise<CliRun> =>
    runCliProcess(args, { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue, ...env });

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    worker = await spawnWorkerProcess({
      address: temporalAddress(),
      taskQueue,
      mcpConfigPath: writeMcpConfig([weatherServer(), tsServer('lab', 'test/fixtures/lab-server.ts')]),
      claudeBaseUrl: fake.url,
      env: keyEnv,
    });
  });
  afterAll(async () => {
    codecServer?.kill('SIGTERM');
    await worker?.stop();
    await fake?.close();
    fs.rmSync(payloadDir, { recursive: true, force: true });
  });

  test('a multi-tool conversation runs; the history holds ciphertext only; the codec server gives plaintext back', async () => {
    expect(worker.output.join('')).toContain('payload encryption on, key id "test-key-1"');
    fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'text', text: '我来查一下。' },
          { type: 'tool_use', id: 'toolu_enc1', name: 'get_weather', input: { city: '北京' } },
          { type: 'tool_use', id: 'toolu_enc2', name: 'slow_echo', input: { text: TOOL_ARGUMENT, ms: 1 } },
        ],
        stop_reason: 'tool_use',
      },
      { kind: 'message', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn' },
    );
    const id = `encrypted-${randomUUID()}`;
    const started = await cli(['start', '--id', id, '--wait', USER_MESSAGE]);
    expect(started).toMatchObject({ code: 0, stdout: `${id}\n${ANSWER}\n` });
    // The tools ran with their arguments (the model saw the echo of the argument).
    const secondRequest = JSON.stringify(fake.requests[1]?.body);
    expect(secondRequest).toContain(`echo: ${TOOL_ARGUMENT}`);
    expect(secondRequest).toContain(TOOL_RESULT);

    // A client with the key reads everything.
    const history = await cli(['history', id, '--json']);
    expect(history).toMatchObject({ code: 0, stderr: '' });
    for (const text of [USER_MESSAGE, TOOL_ARGUMENT, ANSWER, TOOL_RESULT]) expect(history.stdout).toContain(text);

    // The history as the server keeps it, through the temporal CLI (no codec endpoint given).
    const temporalCli = findTemporalCli();
    if (!temporalCli) throw new Error('no Temporal CLI (npm run setup)');
    const show = await runCommand(temporalCli.path, ['workflow', 'show', '--workflow-id', id, '--address', temporalAddress(), '--namespace', 'default', '--output', 'json'], { timeoutMs: 60_000 });
    expect(show.code).toBe(0);
    const historyText = show.stdout;
    fs.mkdirSync(path.join(REPO_ROOT, 'test-output'), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, 'test-output', 'encrypted-history.json'), historyText);
    const payloads = payloadsIn(JSON.parse(historyText));
    // Inputs, results, update arguments and results, the activities' summaries, the start's summary and details, the memo.
    expect(payloads.length).toBeGreaterThan(15);
    const encodings = new Map<string, string[]>();
    for (const { where, payload } of payloads) {
      const encoding = unb64(payload.metadata?.encoding).toString('utf8');
      encodings.set(encoding, [...(encodings.get(encoding) ?? []), where]);
    }
    // Only search attributes (states and counts, which the server must read to filter) and the SDK's
    // own patch markers (a patch id) are not encrypted.
    const sdkOwn = (where: string): boolean => /searchAttributes|markerRecordedEventAttributes\.details\.patch-data/.test(where);
    const notEncrypted = [...encodings.entries()].filter(([encoding]) => encoding !== 'binary/encrypted').flatMap(([, wheres]) => wheres);
    expect(notEncrypted.filter((where) => !sdkOwn(where))).toEqual([]);
    expect(encodings.get('binary/encrypted')?.some((where) => /userMetadata\.summary/.test(where))).toBe(true);
    expect(encodings.get('binary/encrypted')?.some((where) => /memo/.test(where))).toBe(true);
    for (const { payload } of payloads.filter(({ where }) => !sdkOwn(where))) {
      expect(unb64(payload.metadata?.['encryption-key-id']).toString()).toBe('test-key-1');
    }
    const readable = readableWithoutKey(historyText);
    for (const text of PLAINTEXTS) {
      expect(readable).not.toContain(text);
      expect(historyText).not.toContain(b64(text));
      expect(historyText).not.toContain(JSON.stringify(text).slice(1, -1));
    }
    expect(readable).not.toContain('slow_echo {'); // the activity summary's tool arguments
    expect(historyText).not.toContain(KEY);

    // The codec server, as a user starts it, with the same key.
    codecServer = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/mcp-host.js'), 'codec-server', '--port', '0', '--web-ui-origin', UI_ORIGIN], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...keyEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      codecServer?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /codec server on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (found?.[1]) resolve(found[1]);
      });
      codecServer?.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      codecServer?.once('exit', (code) => reject(new Error(`codec-server exited (${String(code)}): ${out}`)));
    });
    const preflight = await fetch(`${url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: UI_ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-namespace' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type,X-Namespace,Authorization');
    const decoded = await fetch(`${url}/decode`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', Origin: UI_ORIGIN },
      body: JSON.stringify({ payloads: payloads.map(({ payload }) => payload) }),
    });
    expect(decoded.status).toBe(200);
    expect(decoded.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
    const plain = ((await decoded.json()) as { payloads: RawPayload[] }).payloads.map((p) => unb64(p.data).toString('utf8')).join('\n');
    for (const text of [USER_MESSAGE, TOOL_ARGUMENT, ANSWER, TOOL_RESULT]) expect(plain).toContain(JSON.stringify(text).slice(1, -1));
    expect(plain).toContain(`slow_echo {\\"text\\":\\"${TOOL_ARGUMENT}`); // the activity summary, as the Web UI will show it

    // The temporal CLI decodes through it too (no Origin header: not a browser).
    const decodedShow = await runCommand(
      temporalCli.path,
      ['workflow', 'show', '--workflow-id', id, '--address', temporalAddress(), '--namespace', 'default', '--output', 'json', '--codec-endpoint', url],
      { timeoutMs: 60_000 },
    );
    expect(decodedShow.code).toBe(0);
    // It prints the decoded payloads (json/plain) still in base64: nothing is left encrypted, the plaintext is there.
    expect(decodedShow.stdout).not.toContain(b64('binary/encrypted'));
    expect(readableWithoutKey(decodedShow.stdout)).toContain(TOOL_ARGUMENT);
    expect(readableWithoutKey(decodedShow.stdout)).toContain(`answer-plaintext-${mark}`);

    // mcp-host list reads the memo (encrypted) through the key.
    let listed = '';
    for (let attempt = 0; attempt < 40 && !listed.includes(`answer-plaintext-${mark}`); attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      listed = (await cli(['list', '--json'])).stdout;
    }
    expect(listed).toContain(`answer-plaintext-${mark}`);

    // mcp-host tools ID: the conversation's own catalogue, read through the key.
    const tools = await cli(['tools', id]);
    expect(tools.code).toBe(0);
    expect(tools.stdout.split('\n')[0]).toMatch(/^CLAUDE NAME\s+SERVER\s+MCP NAME$/);
    expect(tools.stdout).toMatch(/^get_weather\s+weather\s+get_weather$/m);
    expect(tools.stdout).toMatch(/^slow_echo\s+lab\s+slow_echo$/m);
    const toolsJson = JSON.parse((await cli(['tools', id, '--json'])).stdout) as Array<{ claudeName: string; server: string; mcpName: string }>;
    expect(toolsJson.find((row) => row.claudeName === 'add')).toMatchObject({ server: 'lab', mcpName: 'add' });
  }, 120_000);

  test('without the key a client says which key id it needs; a malformed key stops the CLI and the worker at start', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' });
    const id = `encrypted-${randomUUID()}`;
    expect(await cli(['start', '--id', id, '--wait', 'hello'])).toMatchObject({ code: 0, stderr: '' });
    const noKey = await cli(['history', id], { MCP_HOST_PAYLOAD_DIR: payloadDir });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr.trim().split('\n')).toHaveLength(1);
    expect(noKey.stderr).toMatch(/key id "test-key-1", which this process has no key for/);

    const short = randomBytes(16).toString('base64');
    const bad = await cli(['status', id], { MCP_HOST_ENCRYPTION_KEY: short });
    expect(bad).toMatchObject({ code: 1, stderr: 'mcp-host: MCP_HOST_ENCRYPTION_KEY must be 32 bytes in base64, it is 16 bytes (make one with: openssl rand -base64 32)\n' });
    const badWorker = await spawnWorkerProcess({
      address: temporalAddress(),
      taskQueue: `${taskQueue}-bad`,
      mcpConfigPath: writeMcpConfig([weatherServer()]),
      claudeBaseUrl: fake.url,
      env: { MCP_HOST_ENCRYPTION_KEY: short },
    }).then(
      async (w) => {
        await w.stop();
        return 'started';
      },
      (err: unknown) => String(err),
    );
    expect(badWorker).toMatch(/mcp-host worker: MCP_HOST_ENCRYPTION_KEY must be 32 bytes in base64, it is 16 bytes/);
    expect(badWorker).not.toContain(short);

    // An unknown conversation id for `tools ID`: one line, non-zero.
    const unknown = await cli(['tools', `no-such-${randomUUID()}`]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^mcp-host: no conversation with id "no-such-[^"]+"\n$/);
  }, 120_000);
  test('a failure\'s message and stack are encrypted too (an API error quoting the conversation)', async () => {
    const quoted = `failure-plaintext-${mark}`;
    fake.enqueue({ kind: 'error', status: 400, errorType: 'invalid_request_error', message: `messages.0.content: cannot take "${quoted}"` });
    const id = `encrypted-${randomUUID()}`;
    const started = await cli(['start', '--id', id, '--wait', 'hello']);
    // The turn failed, and the client with the key reads why.
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(quoted);
    const temporalCli = findTemporalCli();
    if (!temporalCli) throw new Error('no Temporal CLI (npm run setup)');
    const show = await runCommand(temporalCli.path, ['workflow', 'show', '--workflow-id', id, '--address', temporalAddress(), '--namespace', 'default', '--output', 'json'], { timeoutMs: 60_000 });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('EVENT_TYPE_ACTIVITY_TASK_FAILED');
    expect(readableWithoutKey(show.stdout)).not.toContain(quoted);
  }, 120_000);
});
