/**
 * Tool calls inside the durable loop, on the real dev server with the real Anthropic SDK against the
 * wire-level fake and real MCP servers (the seed's weather server and the lab server over stdio, a
 * scenario server quoting its env, an HTTP server echoing its credentials in an error).
 * Rule ids (S…) refer to shared/seed/RULES.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpServerConfig } from '../../src/mcp/config';
import type { ScriptStep } from '../../src/testing';
import type { TurnResult } from '../../src/conversation/types';
import { sendMessageUpdate, statusQuery } from '../../src/workflows/definitions';
import { startEchoingHttpServer, type EchoingHttpServer } from '../fixtures/echoing-http-server';
import { scenarioServer } from '../fixtures/reference-servers';
import {
  blocksOf,
  historyText,
  messagesOf,
  startConversation,
  validationErrors,
  type ConversationHandle,
} from '../support/loop-helpers';
import { tsServer, weatherServer } from '../support/repo';
import { startTestWorker, TEST_API_KEY, type TestWorker } from '../support/test-worker';

/** An MCP `env` value: a stand-in for a token a real server would get this way. */
const LAB_SECRET = 's3cr3t-value-7f3a91';
/** An MCP `env` value the scenario server quotes in a JSON-RPC error. */
const SCENARIO_SECRET = 'env-s3cret-3f6a2c90';
/** What an HTTP MCP server is configured with: an Authorization header and a `?token=` in its URL. */
const HEADER_SECRET = 'hdr-s3cret-e81c2d7a';
const QUERY_SECRET = 'qry-s3cret-49b0aa13';
/** What only that server knows and echoes: the password and api_key of its upstream's URL. */
const UPSTREAM_PASSWORD = 'upw-s3cret-77d3e0f2';
const UPSTREAM_KEY = 'upk-s3cret-0c9e4b11';
/** The password and token in the URL of a server configured with credentials in it. */
const URL_PASSWORD = 'urlpw-s3cret-5d1e';
const URL_TOKEN = 'urltok-s3cret-a9c4';
/** None of these may appear in a history or a request to Claude. */
const ERROR_TEXT_SECRETS = [SCENARIO_SECRET, HEADER_SECRET, QUERY_SECRET, UPSTREAM_PASSWORD, UPSTREAM_KEY, URL_PASSWORD, URL_TOKEN];

const ok = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

describe('tools in the loop', () => {
  let w: TestWorker;
  let dir: string;
  let labLog: string;
  let vault: EchoingHttpServer;
  /** Every conversation of this suite with its first user text: the secrets test reads all their histories. */
  const handles: Array<{ handle: ConversationHandle; userText: string }> = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'loop-tools-'));
    labLog = path.join(dir, 'lab.log');
    vault = await startEchoingHttpServer(`https://svc-account:${UPSTREAM_PASSWORD}@vault.internal/v1/read?api_key=${UPSTREAM_KEY}`);
    w = await startTestWorker({
      servers: [
        weatherServer(),
        tsServer('lab', 'test/fixtures/lab-server.ts', { LAB_LOG: labLog, LAB_SECRET }),
        scenarioServer('quoting', { SCENARIO_TOOLS: 'echo_secret', SCENARIO_SECRET }),
        { name: 'vault', transport: 'http', url: `${vault.url}?token=${QUERY_SECRET}`, headers: { Authorization: `Bearer ${HEADER_SECRET}` }, tools: {} },
      ],
    });
  });
  afterAll(async () => {
    await w?.stop();
    await vault?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    // Steps left by a failed test would answer this test's requests: fail clearly instead.
    expect(w.fake.pending()).toBe(0);
  });

  /** Starts a conversation and runs its first turn. */
  async function firstTurn(userText: string): Promise<{ handle: ConversationHandle; turn: TurnResult }> {
    const handle = await startConversation(w, {}, 'tools');
    handles.push({ handle, userText });
    return { handle, turn: await handle.executeUpdate(sendMessageUpdate, { args: [userText] }) };
  }

  /** The lab server's log lines about these echo texts, in the order they were written. */
  function labLines(...texts: string[]): string[] {
    return readFileSync(labLog, 'utf8')
      .split('\n')
      .filter((line) => texts.some((text) => line.endsWith(` ${text}`)));
  }

  test('two tool_use blocks run concurrently; the results come back in ONE user message, in block order (S17)', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'text', text: 'Both at once.' },
          // The first call is slower: it finishes second, yet its result must come first.
          { type: 'tool_use', id: 'toolu_slow01', name: 'slow_echo', input: { text: 'A-slow', ms: 1000 } },
          { type: 'tool_use', id: 'toolu_fast02', name: 'slow_echo', input: { text: 'B-fast', ms: 400 } },
        ],
        stop_reason: 'tool_use',
      },
      ok('Both echoed.'),
    );
    const { turn } = await firstTurn('echo twice');
    expect(turn).toMatchObject({ status: 'completed', text: 'Both echoed.', modelCalls: 2, toolCalls: 2 });

    // Both started before either ended (they overlapped), and the second one ended first.
    const lines = labLines('A-slow', 'B-fast');
    expect(lines).toHaveLength(4);
    expect([...lines.slice(0, 2)].sort()).toEqual(['start A-slow', 'start B-fast']);
    expect(lines.slice(2)).toEqual(['end B-fast', 'end A-slow']);

    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    expect(messagesOf(requests[1]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Both at once.' },
          { type: 'tool_use', id: 'toolu_slow01', name: 'slow_echo', input: { text: 'A-slow', ms: 1000 } },
          { type: 'tool_use', id: 'toolu_fast02', name: 'slow_echo', input: { text: 'B-fast', ms: 400 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_slow01', content: 'echo: A-slow' },
          { type: 'tool_result', tool_use_id: 'toolu_fast02', content: 'echo: B-fast' },
        ],
      },
    ]);
  });

  test('isError results (weather 北进, lab fail) reach Claude as is_error tool_results, and the loop goes on (S10, S14)', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'toolu_city01', name: 'get_weather', input: { city: '北进' } },
          { type: 'tool_use', id: 'toolu_fail02', name: 'fail', input: { message: 'the lab refuses' } },
        ],
        stop_reason: 'tool_use',
      },
      ok('北进找不到，你是想问北京吗？'),
    );
    const { handle, turn } = await firstTurn('北进天气怎么样');
    expect(turn).toMatchObject({ status: 'completed', text: '北进找不到，你是想问北京吗？', modelCalls: 2, toolCalls: 2 });

    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    expect(messagesOf(requests[1])[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_city01', content: "找不到城市：北进（是否想输入'北京'？）", is_error: true },
        { type: 'tool_result', tool_use_id: 'toolu_fail02', content: 'the lab refuses', is_error: true },
      ],
    });
    // Tool errors are the server's, not the host's.
    expect(await handle.query(statusQuery)).toMatchObject({ toolCalls: 2, toolErrors: 2, hostToolErrors: 0 });
  });

  test('calls the host cannot make (unknown tool, arguments the server rejects) get host-written is_error results (S11)', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'toolu_nope01', name: 'no_such_tool', input: { x: 1 } },
          // The weather server answers a missing `city` with JSON-RPC -32602, not with a result.
          { type: 'tool_use', id: 'toolu_args02', name: 'get_weather', input: {} },
          { type: 'tool_use', id: 'toolu_add03', name: 'add', input: { a: 2, b: 3 } },
        ],
        stop_reason: 'tool_use',
      },
      ok('One of three worked.'),
    );
    const { handle, turn } = await firstTurn('try things');
    expect(turn).toMatchObject({ status: 'completed', text: 'One of three worked.', modelCalls: 2, toolCalls: 3 });

    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    const results = messagesOf(requests[1])[2];
    expect(results).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_nope01',
          content: '[host] There is no tool named "no_such_tool". Use one of the listed tools.',
          is_error: true,
        },
        { type: 'tool_result', tool_use_id: 'toolu_args02', content: expect.stringContaining('mcp.invalid_params'), is_error: true },
        { type: 'tool_result', tool_use_id: 'toolu_add03', content: '5' },
      ],
    });
    expect(await handle.query(statusQuery)).toMatchObject({ toolCalls: 3, toolErrors: 0, hostToolErrors: 2 });
    // -32602 is the server's final answer: the call is not retried (one attempt per callTool activity).
    const events = (await handle.fetchHistory()).events ?? [];
    const toolCallIds = new Set(
      events.filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'callTool').map((event) => String(event.eventId)),
    );
    const attempts = events.flatMap((event) => {
      const started = event.activityTaskStartedEventAttributes;
      return started && toolCallIds.has(String(started.scheduledEventId)) ? [started.attempt] : [];
    });
    // Two activities: the unknown tool never leaves the workflow.
    expect(attempts).toEqual([1, 1]);
  });

  test('a tool_use named after a key of an object prototype (constructor, toString, __proto__) is an unknown tool (S11)', async () => {
    const names = ['constructor', 'toString', '__proto__'];
    const from = w.fake.requests.length;
    w.fake.enqueue(
      {
        kind: 'message',
        content: [
          ...names.map((name, i) => ({ type: 'tool_use' as const, id: `toolu_proto0${i}`, name, input: {} })),
          // A real tool beside them still runs.
          { type: 'tool_use', id: 'toolu_add04', name: 'add', input: { a: 1, b: 1 } },
        ],
        stop_reason: 'tool_use',
      },
      ok('None of those exist.'),
    );
    const { handle, turn } = await firstTurn('call the prototype');
    expect(turn).toMatchObject({ status: 'completed', text: 'None of those exist.', modelCalls: 2, toolCalls: 4 });

    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    expect(messagesOf(requests[1])[2]).toEqual({
      role: 'user',
      content: [
        ...names.map((name, i) => ({
          type: 'tool_result',
          tool_use_id: `toolu_proto0${i}`,
          content: `[host] There is no tool named "${name}". Use one of the listed tools.`,
          is_error: true,
        })),
        { type: 'tool_result', tool_use_id: 'toolu_add04', content: '2' },
      ],
    });
    expect(await handle.query(statusQuery)).toMatchObject({ toolCalls: 4, toolErrors: 0, hostToolErrors: 3 });
    // None of the three left the workflow: the only callTool scheduled is the add.
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'callTool');
    expect(scheduled).toHaveLength(1);
  });

  test('secrets in error text (a server echoing its URL, header and upstream credentials; one quoting its env) are redacted before they reach a history or Claude', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'tool_use', id: 'toolu_vault01', name: 'vault_read', input: {} },
          { type: 'tool_use', id: 'toolu_quote02', name: 'echo_secret', input: {} },
        ],
        stop_reason: 'tool_use',
      },
      ok('Both failed.'),
    );
    const { turn } = await firstTurn('read the vault');
    expect(turn).toMatchObject({ status: 'completed', text: 'Both failed.', toolCalls: 2 });
    // The server did get its credentials, so its echo held them…
    expect(vault.requests).toContainEqual({ method: 'POST', url: `/mcp?token=${QUERY_SECRET}`, authorization: `Bearer ${HEADER_SECRET}` });

    // …and the host's is_error results say what happened, without them.
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    const [vaultResult, quoteResult] = blocksOf(messagesOf(requests[1])[2]);
    expect(vaultResult).toEqual({ type: 'tool_result', tool_use_id: 'toolu_vault01', is_error: true, content: expect.any(String) });
    expect(vaultResult).toMatchObject({
      content: expect.stringContaining(
        'upstream https://[redacted]@vault.internal/v1/read?api_key=[redacted] refused the request POST /mcp?token=[redacted] (authorization: [redacted])',
      ),
    });
    expect(quoteResult).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_quote02',
      is_error: true,
      content: expect.stringMatching(/mcp\.invalid_params: .*the backend refused the key \[redacted\]$/),
    });
    const sentToClaude = JSON.stringify(w.fake.requests.map((request) => request.body));
    for (const secret of ERROR_TEXT_SECRETS) expect(sentToClaude).not.toContain(secret);
  });

  test('secrets in a server URL the host cannot use (user:password@, ?token=): the failed turn and its history say why without them', async () => {
    const locked: McpServerConfig = {
      name: 'locked',
      transport: 'http',
      // fetch refuses a URL with credentials, and says so quoting the URL.
      url: `${vault.url.replace('http://', `http://svc-user:${URL_PASSWORD}@`)}?token=${URL_TOKEN}`,
      headers: { Authorization: `Bearer ${HEADER_SECRET}` },
      tools: {},
    };
    const lockedWorker = await startTestWorker({ servers: [locked] });
    try {
      const handle = await startConversation(lockedWorker, {}, 'tools');
      // Listing is retried (5 attempts, about 15 s of backoff) before the turn fails.
      const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['anything there?'] });
      expect(turn.status).toBe('failed');
      expect(turn.error).toContain('Request cannot be constructed from a URL that includes credentials: http://[redacted]@127.0.0.1:');
      expect(turn.error).toContain('/mcp?token=[redacted]');
      const text = await historyText(handle);
      expect(text).toContain('listTools');
      expect(text).toContain('URL that includes credentials');
      for (const secret of ERROR_TEXT_SECRETS) {
        expect(turn.error).not.toContain(secret);
        expect(text).not.toContain(secret);
      }
    } finally {
      await lockedWorker.stop();
    }
  });

  test('secrets: neither the API key nor an MCP env value appears anywhere in any workflow history', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      {
        kind: 'message',
        content: [{ type: 'tool_use', id: 'toolu_echo01', name: 'slow_echo', input: { text: 'secret-check', ms: 10 } }],
        stop_reason: 'tool_use',
      },
      ok('Echoed.'),
    );
    // Long enough for the codec to gzip its payloads: the history reader must decode those too.
    const { turn } = await firstTurn(`${'echo once. '.repeat(7000)}(a long message)`);
    expect(turn).toMatchObject({ status: 'completed', toolCalls: 1 });
    // The key did go over the wire (S6), and the lab server did get its env (LAB_LOG works)…
    expect(w.fake.requests.slice(from).map((request) => request.headers['x-api-key'])).toEqual([TEST_API_KEY, TEST_API_KEY]);
    expect(labLines('secret-check')).toEqual(['start secret-check', 'end secret-check']);

    for (const { handle, userText } of handles) {
      const text = await historyText(handle);
      // …and each history reads as text (payloads decoded): absence below means something.
      expect(text).toContain('callClaude');
      expect(text).toContain('callTool');
      expect(text).toContain(userText);
      expect(text).not.toContain(TEST_API_KEY);
      expect(text).not.toContain(LAB_SECRET);
      expect(text).not.toContain(labLog);
      for (const secret of ERROR_TEXT_SECRETS) expect(text).not.toContain(secret);
    }
  });
});
