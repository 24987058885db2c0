import type Anthropic from '@anthropic-ai/sdk';
import { APIConnectionError, APIError, BadRequestError, InternalServerError, OverloadedError } from '@anthropic-ai/sdk';
import type { ContentBlock, Message, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { signThinking, startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { toRequestContent } from '../../src/claude/reply-content';
import { serverToolDefinitions } from '../../src/claude/server-tools';
import { API_KEY, caught, MODEL, sdkClientFor, weatherTool } from '../support/fake-api-client';
import { bashResult, bashUse, citedText, webSearchResult, webSearchUse } from '../support/server-tool-blocks';

describe('fake Messages API, scripted mode', () => {
  let fake: FakeMessagesApi;
  let client: Anthropic;

  beforeAll(async () => {
    fake = await startFakeMessagesApi();
    client = sdkClientFor(fake.url);
  });
  afterAll(async () => {
    await fake.close();
  });

  it('serves a scripted message the SDK parses, and records the request', async () => {
    fake.enqueue({
      kind: 'message',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      usage: { output_tokens: 42 },
    });
    const before = fake.requests.length;
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      system: 'Be brief.',
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });

    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.model).toBe(MODEL);
    expect(message.id).toMatch(/^msg_[0-9A-Za-z]{24}$/);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.stop_sequence).toBeNull();
    expect(message.content[0]).toEqual({ type: 'text', text: 'Let me check.' });
    const toolUse = message.content[1];
    expect(toolUse?.type).toBe('tool_use');
    if (toolUse?.type !== 'tool_use') throw new Error('unreachable');
    expect(toolUse.id).toMatch(/^toolu_[0-9A-Za-z]{24}$/);
    expect(toolUse.input).toEqual({ city: 'Paris' });
    expect(message.usage.output_tokens).toBe(42);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.cache_creation_input_tokens).toBe(0);
    expect(message.usage.cache_read_input_tokens).toBe(0);
    expect(fake.pending()).toBe(0);

    expect(fake.requests).toHaveLength(before + 1);
    const recorded = fake.requests[before];
    expect(recorded?.method).toBe('POST');
    expect(recorded?.path).toBe('/v1/messages');
    expect(recorded?.headers['x-api-key']).toBe(API_KEY);
    expect(recorded?.headers['anthropic-version']).toBe('2023-06-01');
    expect(recorded?.headers['content-type']).toContain('application/json');
    expect(recorded?.headers).not.toHaveProperty('authorization');
    expect(recorded?.body).toMatchObject({
      model: MODEL,
      max_tokens: 256,
      system: 'Be brief.',
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(typeof recorded?.receivedAt).toBe('number');
  });

  it('estimates input tokens from the request size, so they grow every round', async () => {
    const step = { kind: 'message' as const, content: [{ type: 'text' as const, text: 'ok' }], stop_reason: 'end_turn' };
    fake.enqueue(step, step);
    const short = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    const long = await client.messages.create({
      model: MODEL,
      max_tokens: 16,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'tell me more '.repeat(50) },
      ],
    });
    expect(long.usage.input_tokens).toBeGreaterThan(short.usage.input_tokens);
    expect(short.usage.output_tokens).toBeGreaterThan(0);
  });

  it('answers a scripted 529 that the SDK surfaces as OverloadedError with readable headers', async () => {
    fake.enqueue({ kind: 'error', status: 529, headers: { 'retry-after': '1' } });
    const error = await caught(client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }));
    expect(error).toBeInstanceOf(OverloadedError);
    const apiError = error as APIError;
    expect(apiError.status).toBe(529);
    expect(apiError.headers?.get('retry-after')).toBe('1');
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.type).toBe('overloaded_error');
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' }, request_id: apiError.requestID });
  });

  it('uses the given error type, message and x-should-retry header', async () => {
    fake.enqueue({ kind: 'error', status: 429, message: 'slow down', headers: { 'x-should-retry': 'false' } });
    const error = (await caught(client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }))) as APIError;
    expect(error.status).toBe(429);
    expect(error.type).toBe('rate_limit_error');
    expect(error.apiMessage).toBe('slow down');
    expect(error.headers?.get('x-should-retry')).toBe('false');
  });

  it('rejects a role "system" message with 400 invalid_request_error, and records it', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'never served' }], stop_reason: 'end_turn' });
    const before = fake.requests.length;
    const messages: MessageParam[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'hi' },
    ];
    const error = (await caught(client.messages.create({ model: MODEL, max_tokens: 16, messages }))) as APIError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.type).toBe('invalid_request_error');
    expect(error.apiMessage).toContain("messages.0.role: Input should be 'user' or 'assistant'");
    expect(error.apiMessage).toContain('top-level `system`');
    expect(fake.requests).toHaveLength(before + 1);
    // An invalid request consumes no step.
    expect(fake.pending()).toBe(1);
  });

  it('rejects a tool_use without a tool_result in the next message', async () => {
    const error = (await caught(
      client.messages.create({
        model: MODEL,
        max_tokens: 16,
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_abc', name: 'get_weather', input: { city: 'x' } }] },
          { role: 'user', content: 'and?' },
        ],
      }),
    )) as APIError;
    expect(error.status).toBe(400);
    expect(error.apiMessage).toContain('tool_use ids were found without tool_result blocks immediately after: toolu_abc');
    // The step queued by the previous test is still there for the next request.
    const served = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(served.content).toEqual([{ type: 'text', text: 'never served' }]);
  });

  it('streams a scripted message as server-sent events that the SDK accumulates into the same message', async () => {
    const content = [
      { type: 'text' as const, text: '让我查一下北京的天气，马上告诉你结果。' },
      { type: 'tool_use' as const, id: 'toolu_stream1', name: 'get_weather', input: { city: '北京', days: [1, 2] } },
    ];
    fake.enqueue({ kind: 'message', content, stop_reason: 'tool_use', usage: { output_tokens: 33 }, stream: { chunkChars: 5 } });
    const before = fake.requests.length;
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, tools: [weatherTool], messages: [{ role: 'user', content: '北京天气？' }] });
    const deltas: string[] = [];
    const events: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    stream.on('streamEvent', (event) => events.push(event.type === 'content_block_delta' ? `${event.type}:${event.delta.type}` : event.type));
    const message = await stream.finalMessage();
    expect(fake.requests[before]?.body).toMatchObject({ stream: true });
    expect(message).toMatchObject({ role: 'assistant', model: MODEL, stop_reason: 'tool_use', stop_sequence: null, content });
    expect(message.usage).toMatchObject({ output_tokens: 33, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(deltas.join('')).toBe(content[0]?.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(events[0]).toBe('message_start');
    expect(events).toContain('content_block_delta:input_json_delta');
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(events.filter((e) => e === 'content_block_start')).toHaveLength(2);
    expect(events.filter((e) => e === 'content_block_stop')).toHaveLength(2);
  });

  it('a streamed answer paces its events (eventGapMs)', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'abcdefghij' }], stop_reason: 'end_turn', stream: { chunkChars: 2, eventGapMs: 40 } });
    const started = Date.now();
    const times: number[] = [];
    const stream = client.messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    stream.on('text', () => times.push(Date.now() - started));
    await stream.finalMessage();
    expect(times).toHaveLength(5);
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(4 * 35);
  });

  it('a streamed answer tells onEvent of each event as it is written, in order, and a throwing onEvent stops nothing', async () => {
    const seen: Array<[number, string]> = [];
    const onEvent = (event: { event: string }, index: number): void => {
      seen.push([index, event.event]);
      throw new Error('an observer that fails');
    };
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'abcdef' }], stop_reason: 'end_turn', stream: { chunkChars: 2, onEvent } });
    const deltas: string[] = [];
    const stream = client.messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    stream.on('text', (delta) => deltas.push(delta));
    await stream.finalMessage();
    expect(deltas).toEqual(['ab', 'cd', 'ef']);
    expect(seen.map(([i]) => i)).toEqual(seen.map((_, i) => i));
    expect(seen.map(([, name]) => name)).toEqual([
      'message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta',
      'content_block_stop', 'message_delta', 'message_stop',
    ]);
  });

  it('a stream that fails after it began ends with the API error event, which the SDK throws', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'half an answer' }], stop_reason: 'end_turn', stream: { errorAfter: { events: 3 } } });
    const error = (await caught(client.messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).finalMessage())) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBeUndefined();
    expect(error.type).toBe('overloaded_error');
    expect(error.message).toContain('Overloaded');
  });

  it('a stream dropped mid-way fails the SDK call', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'half an answer' }], stop_reason: 'end_turn', stream: { dropAfterEvents: 3 } });
    const error = await caught(client.messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).finalMessage());
    expect(error).toBeInstanceOf(Error);
  });

  it('an HTTP error answers a streaming request before any event, like the real API', async () => {
    fake.enqueue({ kind: 'error', status: 529 });
    const error = (await caught(client.messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }).finalMessage())) as APIError;
    expect(error).toBeInstanceOf(OverloadedError);
  });

  it('validates a streaming request like any other', async () => {
    const error = (await caught(
      client.messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'assistant', content: 'hi' }] }).finalMessage(),
    )) as APIError;
    expect(error.status).toBe(400);
    expect(error.apiMessage).toContain('first message must use the "user" role');
  });

  it('answers 500 loudly when the script ran out', async () => {
    expect(fake.pending()).toBe(0);
    const before = fake.requests.length;
    const error = (await caught(client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }))) as APIError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.apiMessage).toContain('script ran out');
    expect(fake.requests).toHaveLength(before + 1);
  });

  it('lets a respond step answer from the recorded request', async () => {
    fake.enqueue({
      kind: 'respond',
      respond: (req) => {
        const body = req.body as { messages: Array<{ content: unknown }> };
        return { kind: 'message', content: [{ type: 'text', text: `echo: ${String(body.messages[0]?.content)}` }], stop_reason: 'end_turn' };
      },
    });
    const message = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'ping' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'echo: ping' }]);
  });

  it('answers 404 on other paths and 400 on bad JSON, and records both', async () => {
    const before = fake.requests.length;
    const notFound = await fetch(`${fake.url}/v1/complete`, { method: 'POST', body: '{}' });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(notFound.headers.get('request-id')).toMatch(/^req_/);

    const badJson = await fetch(`${fake.url}/v1/messages`, { method: 'POST', body: '{"model":', headers: { 'X-Custom': 'A' } });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });

    expect(fake.requests.slice(before).map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/complete'],
      ['POST', '/v1/messages'],
    ]);
    expect(fake.requests[before + 1]?.body).toBe('{"model":');
    expect(fake.requests[before + 1]?.headers['x-custom']).toBe('A');
  });
});

describe('fake Messages API, wire faults', () => {
  it('drops the connection without an answer: the SDK sees a connection error', async () => {
    const fake = await startFakeMessagesApi({ script: [{ kind: 'drop' }, { kind: 'message', content: [{ type: 'text', text: 'back' }], stop_reason: 'end_turn' }] });
    try {
      const client = sdkClientFor(fake.url);
      const error = await caught(client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }));
      expect(error).toBeInstanceOf(APIConnectionError);
      const message = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
      expect(message.content).toEqual([{ type: 'text', text: 'back' }]);
    } finally {
      await fake.close();
    }
  });

  it('sends a raw body byte for byte, e.g. a 200 that is not JSON', async () => {
    const fake = await startFakeMessagesApi({ script: [{ kind: 'raw', status: 200, body: '{"type":"message","content":[' }] });
    try {
      const response = await fetch(`${fake.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.text()).toBe('{"type":"message","content":[');
    } finally {
      await fake.close();
    }
  });
});

describe('fake Messages API, delays and close', () => {
  it('serves a delayed step, and close() does not wait for one still delayed', async () => {
    const fake = await startFakeMessagesApi({
      script: [
        { kind: 'message', content: [{ type: 'text', text: 'late' }], stop_reason: 'end_turn', delayMs: 50 },
        { kind: 'message', content: [{ type: 'text', text: 'never' }], stop_reason: 'end_turn', delayMs: 60_000 },
      ],
    });
    const client = sdkClientFor(fake.url);
    const started = Date.now();
    const message = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'late' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);

    const hanging = client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    const outcome = hanging.then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await fake.close();
    await fake.close(); // idempotent
    expect(await outcome).toBe('failed');
  });
});

describe('fake Messages API, rules mode', () => {
  let fake: FakeMessagesApi;
  let client: Anthropic;

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'rules' });
    client = sdkClientFor(fake.url);
  });
  afterAll(async () => {
    await fake.close();
  });

  it('serves queued steps before the rules, e.g. to inject a failure', async () => {
    fake.enqueue({ kind: 'error', status: 500 });
    const error = (await caught(
      client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    )) as APIError;
    expect(error.status).toBe(500);
    const next = await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(next.stop_reason).toBe('end_turn');
  });
});

describe('fake Messages API, request log (issue 13 item 9)', () => {
  it('keeps the newest requests within maxRecordedBytes of bodies, dropping the oldest', async () => {
    // Passed as a variable: the option is what this test is about.
    const options = { mode: 'rules' as const, maxRecordedBytes: 20_000 };
    const fake = await startFakeMessagesApi(options);
    try {
      const client = sdkClientFor(fake.url);
      for (let i = 0; i < 20; i++) {
        await client.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: `request ${i} ${'x'.repeat(3000)}` }] });
      }
      const bytes = fake.requests.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r.body), 'utf8'), 0);
      expect(bytes).toBeLessThanOrEqual(20_000);
      expect(fake.requests.length).toBeGreaterThanOrEqual(5);
      expect(fake.requests.length).toBeLessThan(20);
      const last = fake.requests.at(-1)?.body as { messages: Array<{ content: string }> };
      expect(last.messages[0]?.content).toMatch(/^request 19 /);
      expect((fake as { droppedRequests?: () => number }).droppedRequests?.()).toBe(20 - fake.requests.length);
    } finally {
      await fake.close();
    }
  });
});

describe('fake Messages API and extended thinking', () => {
  let fake: FakeMessagesApi;
  let client: Anthropic;

  beforeAll(async () => {
    fake = await startFakeMessagesApi();
    client = sdkClientFor(fake.url);
  });
  afterAll(async () => {
    await fake.close();
  });

  it('streams scripted thinking as thinking_delta and a signature_delta, redacted thinking whole; the SDK gets the blocks back exactly', async () => {
    const thinking = 'The user wants Beijing. I will call get_weather.';
    const content = [
      { type: 'thinking' as const, thinking, signature: signThinking(thinking) },
      { type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      { type: 'tool_use' as const, id: 'toolu_think1', name: 'get_weather', input: { city: '北京' } },
    ];
    fake.enqueue({ kind: 'message', content, stop_reason: 'tool_use', stream: { chunkChars: 8 } });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [weatherTool],
      messages: [{ role: 'user', content: '北京天气？' }],
    });
    const thoughts: string[] = [];
    const events: string[] = [];
    stream.on('thinking', (delta) => thoughts.push(delta));
    stream.on('streamEvent', (event) => events.push(event.type === 'content_block_delta' ? event.delta.type : event.type));
    const message = await stream.finalMessage();
    expect(message.content).toEqual(content);
    expect(thoughts.join('')).toBe(thinking);
    expect(thoughts.length).toBeGreaterThan(1);
    const deltas = events.filter((e) => e.endsWith('_delta'));
    // Thinking deltas, then the signature just before the block stops, then the tool_use's JSON.
    expect(deltas.slice(0, thoughts.length + 1)).toEqual([...thoughts.map(() => 'thinking_delta'), 'signature_delta']);
    expect(deltas).toContain('input_json_delta');
  });

  it('refuses a tool loop whose thinking was dropped with the real API\'s 400, and takes it passed back unchanged', async () => {
    const thought = { type: 'thinking' as const, thinking: 'call it', signature: signThinking('call it') };
    const use = { type: 'tool_use' as const, id: 'toolu_think2', name: 'get_weather', input: { city: '北京' } };
    const results: MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_think2', content: '晴' }] };
    const ask = (assistant: MessageParam['content']) =>
      client.messages.create({
        model: MODEL,
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        tools: [weatherTool],
        messages: [{ role: 'user', content: '北京天气？' }, { role: 'assistant', content: assistant }, results],
      });
    const error = (await caught(ask([use]))) as APIError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.apiMessage).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\. When `thinking` is enabled/);
    const edited = (await caught(ask([{ ...thought, thinking: 'call it!' }, use]))) as APIError;
    expect(edited.apiMessage).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: '晴。' }], stop_reason: 'end_turn' });
    expect((await ask([thought, use])).content).toMatchObject([{ type: 'text', text: '晴。' }]);
  });
});

describe('fake Messages API and server tools', () => {
  let fake: FakeMessagesApi;
  let client: Anthropic;
  const tools = serverToolDefinitions([{ name: 'web_search' }, { name: 'code_execution' }]);
  const ask: MessageParam = { role: 'user', content: 'What is durable execution?' };

  beforeAll(async () => {
    fake = await startFakeMessagesApi();
    client = sdkClientFor(fake.url);
  });
  afterAll(async () => {
    await fake.close();
  });

  it.each([false, true])('a paused server tool round trip (streamed: %p): the blocks, the counts and the container as the real API sends them', async (streamed) => {
    const content: ContentBlock[] = [citedText('Let me search.'), webSearchUse('srvtoolu_s1', 'durable execution'), webSearchResult('srvtoolu_s1'), bashUse('srvtoolu_s2', 'ls'), bashResult('srvtoolu_s2', 'a.txt\n')];
    const container = { id: 'container_011CPR5CNjB747bTd36fQLFk', expires_at: '2026-12-08T10:30:00Z', skills: null };
    fake.enqueue({ kind: 'message', content, stop_reason: 'pause_turn', container });
    const params = { model: MODEL, max_tokens: 256, tools, messages: [ask] };
    const message: Message = streamed ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
    expect(message.stop_reason).toBe('pause_turn');
    expect(message.content).toEqual(content);
    // Filled from the results, as the real API counts what it ran.
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    expect(message.container).toEqual(container);

    // Sent back as the host sends it, the paused turn continues; the container goes back too.
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 } } });
    const next = await client.messages.create({ ...params, container: container.id, messages: [ask, { role: 'assistant', content: toRequestContent(message.content) }] });
    expect(next.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(next.usage.server_tool_use).toEqual({ web_search_requests: 0, web_fetch_requests: 0 });
    expect(fake.requests.at(-1)?.body).toMatchObject({ container: container.id });
  });

  it('refuses, with the API\'s 400, a server tool use the request offers no tool for', async () => {
    const error = (await caught(
      client.messages.create({
        model: MODEL,
        max_tokens: 64,
        tools: [weatherTool],
        messages: [ask, { role: 'assistant', content: toRequestContent([webSearchUse('srvtoolu_s3', 'q'), webSearchResult('srvtoolu_s3')]) }, { role: 'user', content: 'ok' }],
      }),
    )) as APIError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.apiMessage).toBe('messages.1.content.0: `web_search` server tool use requires a `web_search` tool in `tools`');
  });
});
