/**
 * The live channel end to end (issue 32): compiled worker processes (`dist/worker/main.js`) with
 * `MCP_HOST_LIVE_URL` pointing at a real Redis (Debian's redis-server, with a password), the real
 * Anthropic SDK against the wire-level fake streaming an answer one word every 50 ms, and followers
 * through `ConversationClient` with the channel.
 *
 * - A follower gets every piece in order as the model writes it (many pieces, not four a second),
 *   and the exact final text.
 * - Nobody following: nothing is published (no stream key); a follower that joins mid-answer
 *   catches up and shows the whole answer once.
 * - Encryption on: the stream holds no plaintext, and the follower still reads the text.
 * - `kill -9` of the worker mid-answer: the retry on another worker shows as a restart, and the
 *   final text is exact.
 * - The history of a streamed turn is the same with and without the broker.
 */
import { Client, Connection } from '@temporalio/client';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { temporal } from '@temporalio/proto';
import { randomBytes, randomUUID } from 'node:crypto';
import { ConversationClient } from '../../src/client/conversation-client';
import type { ClaudeTextEvent, ConversationEvent } from '../../src/client/conversation-events';
import type { LiveChannel } from '../../src/live/live-channel';
import { parseLiveUrl } from '../../src/live/live-url';
import { openLiveChannel, streamKey } from '../../src/live/redis-live-channel';
import { dataConverter } from '../../src/temporal/data-converter';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { optionalServerTest } from '../support/optional-server';
import { runCliProcess } from '../support/cli-process';
import { pollUntil } from '../support/poll-until';
import { REPO_ROOT } from '../support/repo';
import { REDIS, redisInstalled, startRedis, type RedisServer } from '../support/redis-server';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, waitForLine, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

const WORDS = 40;
/** 40 words the history and the stream can be searched for. */
const ANSWER = Array.from({ length: WORDS }, (_, i) => `live-word-${String(i).padStart(2, '0')}`).join(' ');
/** The model writes a word every this many ms. */
const WORD_GAP_MS = 50;
/** Stream events before the first text delta: message_start, ping, content_block_start. */
const HEAD_EVENTS = 3;
const PASSWORD = 'redis-secret-7f3a9c';

const hello: ScriptStep = { kind: 'message', content: [{ type: 'text', text: 'hello' }], stop_reason: 'end_turn' };

function answer(hold?: { words: number; until: Promise<unknown> }): ScriptStep {
  return {
    kind: 'message',
    content: [{ type: 'text', text: ANSWER }],
    stop_reason: 'end_turn',
    stream: { chunkWords: true, eventGapMs: WORD_GAP_MS, ...(hold ? { holdAfter: { events: HEAD_EVENTS + hold.words, until: hold.until } } : {}) },
  };
}

/** A promise the test settles: the fake holds the answer's rest until then. */
function gate(): { until: Promise<void>; release: () => void } {
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  return { until, release };
}

const textEvents = (events: readonly ConversationEvent[]): ClaudeTextEvent[] => events.flatMap((e) => (e.type === 'claude_text' ? [e] : []));

/** The text a follower shows per Claude call (a restart starts it over). */
function textsOf(events: readonly ConversationEvent[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const event of textEvents(events)) texts.set(event.callId, (event.restart === true ? '' : (texts.get(event.callId) ?? '')) + event.text);
  return texts;
}

const shows = (events: readonly ConversationEvent[], text: string): boolean => [...textsOf(events).values()].some((shown) => shown.includes(text));

/**
 * A follower in a process of its own, as a user's program would be: `ConversationClient.connect()`
 * of the compiled library (so the channel comes from `MCP_HOST_LIVE_URL`), printing the answer's
 * text as it comes (`[restart]` before a restarted attempt's), and exiting at the turn's end.
 */
interface FollowerProcess {
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  kill9(): void;
}

const FOLLOWER_SCRIPT = `
const { ConversationClient } = require(process.argv[1]);
(async () => {
  const client = await ConversationClient.connect();
  const follower = client.follow(process.argv[2], (event) => {
    if (event.type === 'claude_text') process.stdout.write((event.restart ? '[restart]' : '') + event.text);
    if (event.type === 'turn_finished') void follower.stop().then(() => client.close()).then(() => process.exit(0));
  });
  process.stderr.write('following\\n');
})().catch((err) => { process.stderr.write(String(err && err.stack || err) + '\\n'); process.exit(1); });
`;

function startFollowerProcess(id: string, env: Record<string, string>): FollowerProcess {
  const child: ChildProcess = spawn(process.execPath, ['-e', FOLLOWER_SCRIPT, path.join(REPO_ROOT, 'dist/index.js'), id], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { stdout: () => stdout, stderr: () => stderr, exited, kill9: () => child.kill('SIGKILL') };
}

/** The size of every payload's data in `value` (a history event): what the workflow and its activities wrote. */
function payloadBytes(value: unknown, out: number[] = []): number[] {
  if (value === null || typeof value !== 'object') return out;
  if (value instanceof Uint8Array) return out;
  const record = value as Record<string, unknown>;
  if (record.data instanceof Uint8Array && 'metadata' in record) {
    out.push(record.data.length);
    return out;
  }
  for (const child of Object.values(record)) payloadBytes(child, out);
  return out;
}

const installed = redisInstalled();
const testWithRedis = optionalServerTest(REDIS, installed);

describe('the live channel on Redis, end to end', () => {
  let redis: RedisServer;
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let channel: LiveChannel;
  let mcpConfigPath: string;
  const workers: WorkerProcess[] = [];
  /** The broker worker's task queue, and a worker's without the broker (same length). */
  const brokerQueue = `live-b-${randomUUID()}`;
  const plainQueue = `live-p-${randomUUID()}`;

  const spawnWorker = async (taskQueue: string, env: Record<string, string>): Promise<WorkerProcess> => {
    const worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url, env });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    if (!installed) return;
    redis = await startRedis({ password: PASSWORD });
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    channel = openLiveChannel(parseLiveUrl(redis.url)!);
    mcpConfigPath = writeMcpConfig([]);
    await spawnWorker(brokerQueue, { MCP_HOST_LIVE_URL: redis.url });
  }, 120_000);
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await channel?.close();
    await connection?.close();
    await fake?.close();
    await redis?.stop();
  });

  testWithRedis('the worker says which live path it uses, by the URL without its password', async () => {
    expect(await waitForLine(workers[0]!, /Live text: .*/)).toBe(`Live text: Redis redis://127.0.0.1:${redis.port} (stream per conversation)`);
    const output = workers[0]!.output.join('');
    expect(output).not.toContain(PASSWORD);
  });

  testWithRedis('a follower gets every piece in order as the model writes it, and the exact final text', async () => {
    const conversations = new ConversationClient(client, { taskQueue: brokerQueue, live: channel });
    const id = `live-all-${randomUUID()}`;
    fake.enqueue(hello, answer());
    await conversations.start('hi', { id, wait: true });
    const seen: Array<{ event: ConversationEvent; at: number }> = [];
    const result = await conversations.send(id, 'stream it', { onProgress: (event) => seen.push({ event, at: Date.now() }) });
    const doneAt = Date.now();
    expect(result.text).toBe(ANSWER);
    const pieces = textEvents(seen.map((s) => s.event));
    console.log(`live broker: ${pieces.length} text events for ${WORDS} words`);
    // One call, no restart, nothing skipped, each character once in order.
    expect(new Set(pieces.map((p) => p.callId)).size).toBe(1);
    expect(pieces.some((p) => p.restart === true || (p.skipped ?? 0) > 0)).toBe(false);
    expect(pieces.map((p) => p.text).join('')).toBe(ANSWER);
    // The call's start shows before its text (the broker's pieces wait for it).
    const events = seen.map((s) => s.event);
    const started = events.findIndex((e) => e.type === 'claude_started' && e.callId === pieces[0]?.callId);
    expect(started).toBeGreaterThanOrEqual(0);
    expect(started).toBeLessThan(events.findIndex((e) => e.type === 'claude_text'));
    // Word by word (the heartbeats alone give at most four a second, about eight here).
    expect(pieces.length).toBeGreaterThanOrEqual(WORDS / 2);
    // While the answer streamed (two seconds), not at its end.
    const firstAt = seen.find((s) => s.event.type === 'claude_text')?.at ?? doneAt;
    expect(doneAt - firstAt).toBeGreaterThan(1000);
    expect(await redis.client.xlen(streamKey(id))).toBeGreaterThan(0);
  }, 60_000);

  testWithRedis('nobody follows: nothing is published; a follower that joins mid-answer catches up and shows the whole answer once', async () => {
    const conversations = new ConversationClient(client, { taskQueue: brokerQueue, live: channel });
    // A whole turn without a follower: no stream at all.
    const quiet = `live-quiet-${randomUUID()}`;
    fake.enqueue(hello, answer());
    await conversations.start('hi', { id: quiet, wait: true });
    expect((await conversations.send(quiet, 'stream it')).text).toBe(ANSWER);
    expect(await redis.client.exists(streamKey(quiet))).toBe(0);

    // Then a turn held after 20 words, joined while held.
    const id = `live-late-${randomUUID()}`;
    const held = gate();
    try {
      fake.enqueue(hello, answer({ words: 20, until: held.until }));
      await conversations.start('hi', { id, wait: true });
      const asked = fake.requests.length;
      // Sent without following (an update: the follower sees the turn's end).
      const sending = conversations.send(id, 'stream it');
      sending.catch(() => undefined);
      await pollUntil('the answer to be asked for', () => fake.requests.length > asked);
      await new Promise((resolve) => setTimeout(resolve, 20 * WORD_GAP_MS + 500));
      expect(await redis.client.exists(streamKey(id))).toBe(0);
      const late: ConversationEvent[] = [];
      const follower = conversations.follow(id, (event) => late.push(event));
      try {
        await pollUntil('the late follower to catch up', () => shows(late, 'live-word-19'), 10_000);
        held.release();
        expect((await sending).text).toBe(ANSWER);
        await pollUntil("the turn's end", () => late.some((e) => e.type === 'turn_finished'), 30_000);
      } finally {
        await follower.stop();
      }
      const pieces = textEvents(late);
      const started = late.findIndex((e) => e.type === 'claude_started' && e.callId === pieces[0]?.callId);
      expect(started).toBeGreaterThanOrEqual(0);
      expect(started).toBeLessThan(late.findIndex((e) => e.type === 'claude_text'));
      expect(pieces.some((p) => p.restart === true || (p.skipped ?? 0) > 0)).toBe(false);
      expect(pieces.map((p) => p.text).join('')).toBe(ANSWER);
      expect(await redis.client.xlen(streamKey(id))).toBeGreaterThan(0);
    } finally {
      held.release();
    }
  }, 90_000);

  testWithRedis('encryption on: the stream holds no plaintext, and the follower reads the exact text', async () => {
    const key = randomBytes(32).toString('base64');
    const keyEnv = { MCP_HOST_ENCRYPTION_KEY: key, MCP_HOST_ENCRYPTION_KEY_ID: 'live-test-key' };
    const queue = `live-e-${randomUUID()}`;
    // This process seals and opens with the same key (the data converter and the channel read the environment).
    Object.assign(process.env, keyEnv);
    try {
      await spawnWorker(queue, { MCP_HOST_LIVE_URL: redis.url, ...keyEnv });
      const conversations = new ConversationClient(client, { taskQueue: queue, live: channel });
      const id = `live-enc-${randomUUID()}`;
      fake.enqueue(hello, answer());
      await conversations.start('hi', { id, wait: true });
      const seen: ConversationEvent[] = [];
      expect((await conversations.send(id, 'stream it', { onProgress: (event) => seen.push(event) })).text).toBe(ANSWER);
      const pieces = textEvents(seen);
      expect(pieces.map((p) => p.text).join('')).toBe(ANSWER);
      expect(pieces.length).toBeGreaterThanOrEqual(WORDS / 2);
      const raw = JSON.stringify(await redis.client.xrange(streamKey(id), '-', '+'));
      expect(raw).toContain('live-test-key');
      expect(raw).not.toContain('live-word');
    } finally {
      delete process.env.MCP_HOST_ENCRYPTION_KEY;
      delete process.env.MCP_HOST_ENCRYPTION_KEY_ID;
    }
  }, 90_000);

  testWithRedis('kill -9 of the worker mid-answer: the follower shows the restart, and the final text is exact', async () => {
    const queue = `live-k-${randomUUID()}`;
    const first = await spawnWorker(queue, { MCP_HOST_LIVE_URL: redis.url });
    const conversations = new ConversationClient(client, { taskQueue: queue, live: channel });
    const id = `live-kill-${randomUUID()}`;
    const held = gate();
    try {
      // The retry on the next worker asks again: the whole answer, unheld.
      fake.enqueue(hello, answer({ words: 15, until: held.until }), answer());
      // A short heartbeat timeout: the server notices the dead worker within seconds.
      await conversations.start('hi', { id, wait: true, modelHeartbeatTimeoutMs: 2000 });
      const seen: ConversationEvent[] = [];
      const sending = conversations.send(id, 'stream it', { onProgress: (event) => seen.push(event) });
      sending.catch(() => undefined);
      await pollUntil('the first words, live', () => shows(seen, 'live-word-14'), 20_000);
      first.kill9();
      expect(await first.exited).toBeNull();
      await spawnWorker(queue, { MCP_HOST_LIVE_URL: redis.url });
      const result = await sending;
      expect(result.text).toBe(ANSWER);
      const pieces = textEvents(seen);
      const restart = pieces.findIndex((p) => p.restart === true);
      expect(restart).toBeGreaterThan(0);
      expect(pieces[restart]?.attempt).toBe(2);
      expect([...textsOf(seen).values()]).toEqual([ANSWER]);
    } finally {
      held.release();
    }
  }, 120_000);

  testWithRedis('Redis stopped mid-answer: the call goes on, the follower finishes from the heartbeats with the exact text; one log line, no password', async () => {
    const own = await startRedis({ password: PASSWORD });
    const ownChannel = openLiveChannel(parseLiveUrl(own.url)!);
    const queue = `live-r-${randomUUID()}`;
    const worker = await spawnWorker(queue, { MCP_HOST_LIVE_URL: own.url });
    const held = gate();
    try {
      const conversations = new ConversationClient(client, { taskQueue: queue, live: ownChannel });
      const id = `live-down-${randomUUID()}`;
      fake.enqueue(hello, answer({ words: 20, until: held.until }));
      await conversations.start('hi', { id, wait: true });
      const seen: ConversationEvent[] = [];
      const sending = conversations.send(id, 'stream it', { onProgress: (event) => seen.push(event) });
      sending.catch(() => undefined);
      await pollUntil('the first 20 words, live', () => shows(seen, 'live-word-19'), 20_000);
      expect(await own.client.xlen(streamKey(id))).toBeGreaterThan(0);
      await own.stop();
      held.release();
      expect((await sending).text).toBe(ANSWER);
      const pieces = textEvents(seen);
      expect(pieces.some((p) => p.restart === true || (p.skipped ?? 0) > 0)).toBe(false);
      expect([...textsOf(seen).values()]).toEqual([ANSWER]);
      const said = await waitForLine(worker, /live channel redis:.*/);
      expect(said).toMatch(new RegExp(`^live channel redis://127\\.0\\.0\\.1:${own.port}: .*\\(followers read the heartbeats meanwhile\\)$`));
      expect(worker.output.join('')).not.toContain(PASSWORD);
    } finally {
      held.release();
      await ownChannel.close();
      await own.stop();
    }
  }, 90_000);

  testWithRedis('a follower process killed with kill -9 mid-answer and started again prints the whole answer once', async () => {
    const conversations = new ConversationClient(client, { taskQueue: brokerQueue, live: channel });
    const id = `live-refollow-${randomUUID()}`;
    const env = { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: brokerQueue, MCP_HOST_LIVE_URL: redis.url };
    const held = gate();
    try {
      fake.enqueue(hello, answer({ words: 25, until: held.until }));
      await conversations.start('hi', { id, wait: true });
      const first = startFollowerProcess(id, env);
      await pollUntil('the first follower to follow', () => first.stderr().includes('following'), 30_000);
      const sending = conversations.send(id, 'stream it');
      sending.catch(() => undefined);
      await pollUntil('the first follower to print word 10', () => first.stdout().includes('live-word-10'), 20_000);
      first.kill9();
      expect(await first.exited).toBeNull();
      const printed = first.stdout();
      expect(ANSWER.startsWith(printed)).toBe(true);
      // Killed with the answer half written: the next follower must catch up on what it missed.
      const second = startFollowerProcess(id, env);
      await pollUntil('the second follower to catch up to word 24', () => second.stdout().includes('live-word-24'), 20_000);
      held.release();
      expect((await sending).text).toBe(ANSWER);
      expect(await second.exited).toBe(0);
      // The whole answer once, in order, without a restart (the same attempt).
      expect(second.stdout()).toBe(ANSWER);
      expect(second.stderr()).toBe('following\n');
      // The followers were present: the worker published (the follower process read MCP_HOST_LIVE_URL).
      expect(await redis.client.xlen(streamKey(id))).toBeGreaterThan(0);
      expect(first.stdout() + first.stderr() + second.stdout() + second.stderr()).not.toContain(PASSWORD);
    } finally {
      held.release();
    }
  }, 90_000);

  testWithRedis('the CLI: send --follow reads the channel; status and servers name the live path; the password shows nowhere', async () => {
    const id = `live-cli-${randomUUID()}`;
    const env = { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: brokerQueue, MCP_CONFIG: mcpConfigPath };
    const broker = { ...env, MCP_HOST_LIVE_URL: redis.url };
    fake.enqueue(hello, answer());
    expect(await runCliProcess(['start', '--id', id, '--wait', 'hi'], broker)).toMatchObject({ code: 0 });
    const sent = await runCliProcess(['send', id, 'stream it', '--follow'], broker);
    expect(sent).toMatchObject({ code: 0, stdout: `${ANSWER}\n` });
    // The answer streamed on stderr, through the broker (the CLI was present: the worker published).
    expect(sent.stderr).toContain(ANSWER);
    expect(await redis.client.xlen(streamKey(id))).toBeGreaterThan(0);

    const line = `Live text: Redis redis://127.0.0.1:${redis.port} (stream per conversation)`;
    const status = await runCliProcess(['status', id], broker);
    expect(status.code).toBe(0);
    expect(status.stdout.trimEnd().split('\n').at(-1)).toBe(line);
    const servers = await runCliProcess(['servers'], broker);
    expect(servers.stdout.trimEnd().split('\n').at(-1)).toBe(line);
    // Without the setting: the heartbeats.
    const plainStatus = await runCliProcess(['status', id], env);
    expect(plainStatus.stdout.trimEnd().split('\n').at(-1)).toBe('Live text: heartbeats (MCP_HOST_LIVE_URL unset)');
    const plainServers = await runCliProcess(['servers'], env);
    expect(plainServers.stdout.trimEnd().split('\n').at(-1)).toBe('Live text: heartbeats (MCP_HOST_LIVE_URL unset)');

    const printed = [sent, status, servers].map((run) => run.stdout + run.stderr).join('\n');
    expect(printed).not.toContain(PASSWORD);
    const history = Buffer.from(temporal.api.history.v1.History.encode({ events: (await client.workflow.getHandle(id).fetchHistory()).events ?? [] }).finish());
    expect(history.toString('latin1')).not.toContain(PASSWORD);
    expect(history.toString('latin1')).not.toContain('MCP_HOST_LIVE_URL');
  }, 90_000);

  testWithRedis('chat on a terminal (tmux) reads the channel: the answer shows once, word by word, and the password nowhere', async () => {
    const socket = `mcp-host-live-${randomUUID().slice(0, 8)}`;
    const tmux = (...args: string[]): string => execFileSync('tmux', ['-u', '-L', socket, ...args], { encoding: 'utf8', env: { ...process.env, LANG: 'C.UTF-8' } });
    const screen = (): string => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'chat');
    const waitFor = async (check: (text: string) => boolean, what: string): Promise<string> => {
      let text = '';
      await pollUntil(what, () => check((text = screen())), 30_000).catch((err: unknown) => {
        throw new Error(`${err instanceof Error ? err.message : String(err)}; the screen:\n${text}`);
      });
      return text;
    };
    const id = `live-chat-${randomUUID()}`;
    const held = gate();
    try {
      fake.enqueue(hello, answer({ words: 20, until: held.until }));
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LANG: 'C.UTF-8',
        TERM: 'xterm-256color',
        TEMPORAL_ADDRESS: temporalAddress(),
        MCP_HOST_TASK_QUEUE: brokerQueue,
        MCP_HOST_LIVE_URL: redis.url,
      };
      const command = `env -i ${Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ')} ${process.execPath} ${path.join(REPO_ROOT, 'bin/mcp-host.js')} chat --id ${id}`;
      tmux('new-session', '-d', '-s', 'chat', '-x', '160', '-y', '60', command);
      await waitFor((text) => text.includes('you> '), 'the prompt');
      tmux('send-keys', '-t', 'chat', 'hi', 'Enter');
      await waitFor((text) => text.includes('claude> hello') && text.trimEnd().endsWith('you>'), 'the greeting');
      tmux('send-keys', '-t', 'chat', 'stream it', 'Enter');
      // Held after 20 words: what is on the screen came live, through the broker (the chat was present).
      const during = await waitFor((text) => text.includes('live-word-19'), 'the first 20 words, live');
      expect(during).not.toContain('live-word-20');
      expect(await redis.client.xlen(streamKey(id))).toBeGreaterThan(0);
      held.release();
      const after = await waitFor((text) => text.includes('live-word-39') && text.trimEnd().endsWith('you>'), 'the whole answer and the next prompt');
      expect(after).toContain(`claude> ${ANSWER}`);
      expect(after.split('live-word-00').length - 1).toBe(1);
      expect(after.split('live-word-39').length - 1).toBe(1);
      expect(after).not.toContain(PASSWORD);
    } finally {
      held.release();
      try {
        tmux('kill-server');
      } catch {
        // not started
      }
    }
  }, 90_000);

  testWithRedis('the history of a streamed turn is the same with and without the broker', async () => {
    await spawnWorker(plainQueue, {});
    const turn = async (taskQueue: string, id: string): Promise<{ events: number; bytes: number; types: string; payloads: string; answers: number; pieces: number }> => {
      const conversations = new ConversationClient(client, { taskQueue, live: channel });
      fake.enqueue(hello, answer());
      await conversations.start('hi', { id, wait: true, messageId: 'm-1' });
      const seen: ConversationEvent[] = [];
      expect((await conversations.send(id, 'stream it', { messageId: 'm-2', onProgress: (event) => seen.push(event) })).text).toBe(ANSWER);
      const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
      const encoded = Buffer.from(temporal.api.history.v1.History.encode({ events }).finish());
      expect(encoded.toString('latin1')).not.toContain(PASSWORD);
      return {
        events: events.length,
        bytes: encoded.length,
        types: events.map((event) => event.eventType ?? 0).join(','),
        // Per event, sorted: a map's payloads (memo, search attributes, headers) come in no fixed order.
        payloads: events.map((event) => payloadBytes(event).sort((a, b) => a - b).join(',')).join(';'),
        answers: encoded.toString('latin1').split('live-word-30').length - 1,
        pieces: textEvents(seen).length,
      };
    };
    // Same-length ids, task queues and message ids: the histories differ only where timestamps do.
    const withBroker = await turn(brokerQueue, `hist-b-${randomUUID()}`);
    const without = await turn(plainQueue, `hist-p-${randomUUID()}`);
    console.log(`history of one streamed turn: ${JSON.stringify({ withBroker, without })}`);
    expect(withBroker.pieces).toBeGreaterThan(without.pieces);
    expect(withBroker.answers).toBeGreaterThan(0);
    expect(withBroker.events).toBe(without.events);
    expect(withBroker.types).toBe(without.types);
    // Every event's payloads (inputs, results, memo, headers) of the same sizes.
    expect(withBroker.payloads).toBe(without.payloads);
    expect(withBroker.answers).toBe(without.answers);
    expect(Math.abs(withBroker.bytes - without.bytes)).toBeLessThan(64);
  }, 90_000);

  testWithRedis("the URL's password never reached any worker's output", () => {
    expect(workers.length).toBeGreaterThan(3);
    for (const worker of workers) expect(worker.output.join('')).not.toContain(PASSWORD);
  });
});
