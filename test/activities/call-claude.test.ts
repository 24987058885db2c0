/**
 * The `callClaude` activity in Temporal's mock activity context, against the scripted fake Messages
 * API: what it sends, and that a transcript the real API would refuse fails before any request.
 */
import { createCallClaude } from '../../src/activities/call-claude';
import type { ClaudeCallInput, ClaudeReply } from '../../src/activities/types';
import { createClaudeClient } from '../../src/claude/create-claude-client';
import type { MessageParam, Tool } from '../../src/conversation/types';
import { signThinking, validateMessagesRequest } from '../../src/offline';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import type { MockActivityEnvironment } from '@temporalio/testing';
import { failureOf, quietActivityEnvironment } from '../fixtures/mock-activities';
import { SEED_TRANSCRIPT } from '../support/seed-transcript';

const WEATHER: Tool = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const ANSWER = '北京今天晴，气温二十五度，适合出门散步。';

const INPUT: ClaudeCallInput = {
  transcript: { workflowId: 'conversation-test', runId: 'run', messageCount: 0, digest: '' },
  catalogDigest: 'catalog',
  model: 'claude-sonnet-4-6',
  maxTokens: 256,
  context: { strategy: { kind: 'keep_all' }, summaryCovers: 0 },
  promptCache: { enabled: false },
};

describe('callClaude', () => {
  let fake: FakeMessagesApi;

  beforeAll(async () => {
    fake = await startFakeMessagesApi();
  });
  afterAll(async () => {
    await fake.close();
  });

  /** What a test may add to the activity's dependencies: time limits, the text-delta hook. */
  interface Extras {
    limits?: { stallTimeoutMs?: number; totalTimeoutMs?: number };
    onTextDelta?: (delta: { workflowId: string; activityId: string; attempt: number; text: string }) => void;
    onThinkingDelta?: (delta: { workflowId: string; activityId: string; attempt: number; text: string }) => void;
  }

  /** One activity attempt over `messages` and the catalogue's `tools`, as if read from the workflow. */
  function call(
    messages: readonly MessageParam[],
    tools: readonly Tool[] = [WEATHER],
    extras: Extras = {},
    input: ClaudeCallInput = INPUT,
    env: MockActivityEnvironment = quietActivityEnvironment(),
  ): Promise<ClaudeReply> {
    const deps = {
      claude: createClaudeClient({ apiKey: 'sk-ant-test', baseURL: fake.url }),
      transcripts: {
        messages: () => Promise.resolve([...messages]),
        tools: () => Promise.resolve([...tools]),
        summary: () => Promise.resolve(undefined),
      },
      ...extras,
    };
    return env.run(createCallClaude(deps), input);
  }

  test('sends a valid transcript with its tools and returns the reply in request form', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: '上海今天多云。' }], stop_reason: 'end_turn', usage: { output_tokens: 7 } });
    const before = fake.requests.length;
    const reply = await call(SEED_TRANSCRIPT);
    expect(reply).toMatchObject({ content: [{ type: 'text', text: '上海今天多云。' }], stopReason: 'end_turn', usage: { output_tokens: 7 } });
    expect(fake.requests.slice(before)).toHaveLength(1);
    expect(fake.requests[before]?.body).toMatchObject({ model: INPUT.model, tools: [WEATHER], messages: SEED_TRANSCRIPT });
    expect(fake.requests[before]?.body).not.toHaveProperty('tool_choice');
  });

  test('an empty catalogue with tool calls in the history: the tools those calls name go out as stand-ins the model may not call (the API requires tools then)', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: '上海今天多云。' }], stop_reason: 'end_turn' });
    const before = fake.requests.length;
    const reply = await call(SEED_TRANSCRIPT, []);
    expect(reply.stopReason).toBe('end_turn');
    const body = fake.requests[before]?.body;
    expect(validateMessagesRequest(body)).toBeNull();
    expect(body).toMatchObject({
      tools: [{ name: 'get_weather', description: expect.stringMatching(/no longer available/i), input_schema: { type: 'object' } }],
      tool_choice: { type: 'none' },
      messages: SEED_TRANSCRIPT,
    });
  });

  test('an empty catalogue and no tool calls in the history: no tools at all', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn' });
    const before = fake.requests.length;
    await call([{ role: 'user', content: 'hello' }], []);
    const body = fake.requests[before]?.body;
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });

  test.each<[string, MessageParam[], RegExp]>([
    ['a tool_use without its tool_result', SEED_TRANSCRIPT.slice(0, 4), /tool_use toolu_01AbC has no tool_result in the next user message/],
    ['two user messages in a row', [SEED_TRANSCRIPT[0]!, SEED_TRANSCRIPT[2]!], /roles must alternate/],
    ['a blank text block', [{ role: 'user', content: [{ type: 'text', text: ' ' }] }], /empty text block/],
  ])('%s fails non-retryable before any request is sent', async (_name, messages, expected) => {
    const before = fake.requests.length;
    const failure = await failureOf(call(messages));
    expect(failure).toMatchObject({ type: 'host.invalid_transcript', nonRetryable: true });
    expect(failure.message).toMatch(expected);
    expect(fake.requests.length).toBe(before);
  });

  describe('streaming (issue 13 item 10)', () => {

    test('the request is streamed; the reply is the same ClaudeReply; text deltas reach the hook, never the result', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn', usage: { output_tokens: 9 }, stream: { chunkChars: 4 } });
      const before = fake.requests.length;
      const deltas: Array<{ workflowId: string; text: string }> = [];
      const reply = await call(SEED_TRANSCRIPT, [WEATHER], { onTextDelta: (d) => deltas.push(d) });
      expect(fake.requests[before]?.body).toMatchObject({ stream: true, model: INPUT.model, tools: [WEATHER], messages: SEED_TRANSCRIPT });
      expect(reply).toEqual({
        id: expect.stringMatching(/^msg_/),
        model: INPUT.model,
        content: [{ type: 'text', text: ANSWER }],
        stopReason: 'end_turn',
        stopSequence: null,
        usage: { input_tokens: expect.any(Number), output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      });
      expect(deltas.map((d) => d.text).join('')).toBe(ANSWER);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas[0]?.workflowId).toBe(INPUT.transcript.workflowId);
    });

    test('a tool_use streamed as input_json_delta comes back whole', async () => {
      const input = { city: '上海', units: 'metric', days: [1, 2, 3] };
      fake.enqueue({ kind: 'message', content: [{ type: 'tool_use', id: 'toolu_s1', name: 'get_weather', input }], stop_reason: 'tool_use', stream: { chunkChars: 3 } });
      const reply = await call(SEED_TRANSCRIPT);
      expect(reply.content).toEqual([{ type: 'tool_use', id: 'toolu_s1', name: 'get_weather', input }]);
      expect(reply.stopReason).toBe('tool_use');
    });

    test('a max_tokens the SDK refuses without streaming (128,000) is sent, streamed', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'long' }], stop_reason: 'end_turn' });
      const before = fake.requests.length;
      const reply = await call(SEED_TRANSCRIPT, [WEATHER], {}, { ...INPUT, maxTokens: 128_000 });
      expect(reply.content).toEqual([{ type: 'text', text: 'long' }]);
      expect(fake.requests[before]?.body).toMatchObject({ stream: true, max_tokens: 128_000 });
    });

    test('a long generation keeps heartbeating while its events arrive', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'x'.repeat(40) }], stop_reason: 'end_turn', stream: { chunkChars: 1, eventGapMs: 60 } });
      const env = quietActivityEnvironment();
      let beats = 0;
      env.on('heartbeat', () => beats++);
      const started = Date.now();
      await call(SEED_TRANSCRIPT, [WEATHER], {}, INPUT, env);
      const seconds = (Date.now() - started) / 1000;
      expect(seconds).toBeGreaterThan(2);
      expect(beats).toBeGreaterThanOrEqual(Math.floor(seconds));
    });

    test('an overloaded_error after the stream began is retryable (claude.overloaded_error)', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn', stream: { errorAfter: { events: 4 } } });
      const failure = await failureOf(call(SEED_TRANSCRIPT));
      expect(failure).toMatchObject({ type: 'claude.overloaded_error', nonRetryable: false });
    });

    test('an invalid_request_error after the stream began is not retried', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn', stream: { errorAfter: { events: 2, errorType: 'invalid_request_error', message: 'bad' } } });
      const failure = await failureOf(call(SEED_TRANSCRIPT));
      expect(failure).toMatchObject({ type: 'claude.invalid_request_error', nonRetryable: true });
    });

    test('a stream dropped mid-way is a retryable connection error', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn', stream: { dropAfterEvents: 4 } });
      const failure = await failureOf(call(SEED_TRANSCRIPT));
      expect(failure).toMatchObject({ type: 'claude.connection_error', nonRetryable: false });
    });
  });

  describe('time limits (issue 9)', () => {
    test('an answer that never comes is cut at the configured stall limit, heartbeating while it waits, and retried (claude.stalled)', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'never' }], stop_reason: 'end_turn', delayMs: 60_000 });
      const env = quietActivityEnvironment();
      let beats = 0;
      env.on('heartbeat', () => beats++);
      const started = Date.now();
      const failure = await failureOf(call(SEED_TRANSCRIPT, [WEATHER], { limits: { stallTimeoutMs: 1500 } }, INPUT, env));
      const elapsed = Date.now() - started;
      expect(failure).toMatchObject({ type: 'claude.stalled', nonRetryable: false });
      expect(failure.message).toMatch(/no answer .*1\.5 s/);
      expect(elapsed).toBeGreaterThanOrEqual(1400);
      expect(elapsed).toBeLessThan(5000);
      expect(beats).toBeGreaterThanOrEqual(1);
    });

    test('a stream that goes silent after it began is cut at the stall limit too', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn', stream: { stallAfterEvents: 4 } });
      const started = Date.now();
      const failure = await failureOf(call(SEED_TRANSCRIPT, [WEATHER], { limits: { stallTimeoutMs: 800 } }));
      expect(failure).toMatchObject({ type: 'claude.stalled', nonRetryable: false });
      expect(Date.now() - started).toBeLessThan(4000);
    });

    test('a generation still running at the total limit is cut and not retried (a retry would pay for it again)', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'y'.repeat(100) }], stop_reason: 'end_turn', stream: { chunkChars: 1, eventGapMs: 50 } });
      const started = Date.now();
      const failure = await failureOf(call(SEED_TRANSCRIPT, [WEATHER], { limits: { stallTimeoutMs: 1000, totalTimeoutMs: 1200 } }));
      expect(failure).toMatchObject({ type: 'claude.timeout', nonRetryable: true });
      expect(Date.now() - started).toBeLessThan(4000);
    });
  });

  describe('extended thinking (issue 29)', () => {
    const LOOP: MessageParam[] = [
      { role: 'user', content: '北京天气？' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'Beijing: call the tool.', signature: signThinking('Beijing: call the tool.') }, { type: 'tool_use', id: 'toolu_th1', name: 'get_weather', input: { city: '北京' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_th1', content: '晴' }] },
    ];

    test('off: the request has no thinking fields, as before', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' });
      const before = fake.requests.length;
      await call(SEED_TRANSCRIPT);
      expect(Object.keys(fake.requests[before]?.body as object)).toEqual(['model', 'max_tokens', 'messages', 'tools', 'stream']);
    });

    test('a budget goes as `thinking: enabled`; adaptive as `thinking: adaptive` with `output_config.effort`; the thinking blocks go back as stored', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: '晴。' }], stop_reason: 'end_turn' });
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: '晴。' }], stop_reason: 'end_turn' });
      const before = fake.requests.length;
      await call(LOOP, [WEATHER], {}, { ...INPUT, maxTokens: 4096, thinking: { type: 'enabled', budgetTokens: 2048 } });
      await call(LOOP, [WEATHER], {}, { ...INPUT, maxTokens: 4096, thinking: { type: 'adaptive', effort: 'high' } });
      const [budget, adaptive] = fake.requests.slice(before).map((r) => r.body as Record<string, unknown>);
      expect(budget).toMatchObject({ max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: LOOP });
      expect(budget).not.toHaveProperty('output_config');
      expect(adaptive).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' }, messages: LOOP });
    });

    test('a budget not below max_tokens fails non-retryable before any request (the API would answer 400)', async () => {
      const before = fake.requests.length;
      const failure = await failureOf(call(LOOP, [WEATHER], {}, { ...INPUT, maxTokens: 2048, thinking: { type: 'enabled', budgetTokens: 2048 } }));
      expect(failure).toMatchObject({ type: 'host.invalid_request', nonRetryable: true });
      expect(failure.message).toMatch(/thinking budget \(2048 tokens\) must be less than maxTokens \(2048\)/);
      expect(fake.requests.length).toBe(before);
    });

    test('a turn that opens on the results of a thinking-less call sends that call as text, so the API takes it', async () => {
      const limited: MessageParam[] = [
        { role: 'user', content: '北京天气？' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_th2', name: 'get_weather', input: { city: '北京' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_th2', content: 'not run', is_error: true }, { type: 'text', text: '算了' }] },
      ];
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: '好。' }], stop_reason: 'end_turn' });
      const before = fake.requests.length;
      const reply = await call(limited, [WEATHER], {}, { ...INPUT, maxTokens: 4096, thinking: { type: 'enabled', budgetTokens: 2048 } });
      expect(reply.stopReason).toBe('end_turn');
      expect(JSON.stringify(fake.requests[before]?.body)).toContain('[called the tool get_weather with {\\"city\\":\\"北京\\"}]');
    });

    test('thinking streams to the hook and into the heartbeats\' details, never into the text', async () => {
      const thought = 'The user wants the weather in Beijing; get_weather answers that.';
      fake.enqueue({
        kind: 'message',
        content: [{ type: 'thinking', thinking: thought, signature: signThinking(thought) }, { type: 'text', text: ANSWER }],
        stop_reason: 'end_turn',
        stream: { chunkChars: 4, eventGapMs: 40 },
      });
      const env = quietActivityEnvironment();
      const details: unknown[] = [];
      env.on('heartbeat', (d: unknown) => details.push(d));
      const texts: string[] = [];
      const thoughts: string[] = [];
      const reply = await call(SEED_TRANSCRIPT, [WEATHER], { onTextDelta: (d) => texts.push(d.text), onThinkingDelta: (d) => thoughts.push(d.text) }, { ...INPUT, maxTokens: 4096, thinking: { type: 'adaptive' } }, env);
      expect(reply.content).toEqual([{ type: 'thinking', thinking: thought, signature: signThinking(thought) }, { type: 'text', text: ANSWER }]);
      expect(thoughts.join('')).toBe(thought);
      expect(texts.join('')).toBe(ANSWER);
      const last = details.filter((d) => (d as { stream?: string } | undefined)?.stream === 'claude-text').at(-1);
      expect(last).toMatchObject({ text: ANSWER, thinking: { length: thought.length, from: 0, text: thought } });
    });
  });
});
