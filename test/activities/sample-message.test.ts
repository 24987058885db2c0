/**
 * The `sampleMessage` activity (a server's MCP `sampling/createMessage` answered by Claude) in
 * Temporal's mock activity context, through the real Anthropic SDK against the wire-level fake
 * Messages API: what request the server's params become, what `CreateMessageResult` the reply
 * becomes, and that failures are classified like callClaude's. And the model choice, on its own.
 */
import { createSampleMessage, samplingModel } from '../../src/activities/sample-message';
import type { SamplingInput, SamplingOutput } from '../../src/activities/types';
import { createClaudeClient } from '../../src/claude/create-claude-client';
import { validateMessagesRequest } from '../../src/offline';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { failureOf, quietActivityEnvironment } from '../fixtures/mock-activities';

const CONVERSATION_MODEL = 'claude-sonnet-4-6';

/** A sampling request as a server sends it, with the host's side filled in. */
function sampling(params: Record<string, unknown>, maxTokensCap = 1000): SamplingInput {
  return { server: 'weather', params, model: CONVERSATION_MODEL, maxTokensCap };
}

const HELLO = [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }];

describe('samplingModel', () => {
  test.each<[string, Parameters<typeof samplingModel>[0], string]>([
    ['no preferences: the conversation model', undefined, CONVERSATION_MODEL],
    ['empty preferences', {}, CONVERSATION_MODEL],
    ['an exact known id', { hints: [{ name: 'claude-haiku-4-5' }] }, 'claude-haiku-4-5'],
    ['a dated form of a known id, as given', { hints: [{ name: 'claude-sonnet-4-5-20250929' }] }, 'claude-sonnet-4-5-20250929'],
    ['the first hint that names a Claude model wins', { hints: [{ name: 'gpt-4o' }, { name: 'claude-3-5-haiku' }, { name: 'opus' }] }, 'claude-3-5-haiku'],
    ['a substring of one family: the newest of the ids it matches', { hints: [{ name: 'sonnet-4' }] }, 'claude-sonnet-4-6'],
    ['a family word: the newest of the family', { hints: [{ name: 'opus' }] }, 'claude-opus-5-5'],
    ['a name with a family word (an older model the host lacks)', { hints: [{ name: 'claude-3-sonnet' }] }, 'claude-sonnet-5-5'],
    ['case and spaces do not matter', { hints: [{ name: ' Haiku ' }] }, 'claude-haiku-5-5'],
    ['"claude" says only "a Claude model": the conversation model', { hints: [{ name: 'claude' }] }, CONVERSATION_MODEL],
    ['unknown hints and no priorities: the conversation model', { hints: [{ name: 'gemini-1.5-pro' }, {}] }, CONVERSATION_MODEL],
    ['intelligence first: an opus model', { intelligencePriority: 0.9, speedPriority: 0.2, costPriority: 0.1 }, 'claude-opus-5-5'],
    ['speed: a haiku model', { speedPriority: 0.8 }, 'claude-haiku-5-5'],
    ['cost: a haiku model', { costPriority: 0.95, intelligencePriority: 0.5 }, 'claude-haiku-5-5'],
    ['intelligence high but not above cost: haiku', { intelligencePriority: 0.9, costPriority: 0.9 }, 'claude-haiku-5-5'],
    ['priorities below 0.8: the conversation model', { intelligencePriority: 0.7, speedPriority: 0.5 }, CONVERSATION_MODEL],
    ['a hint beats the priorities', { hints: [{ name: 'sonnet' }], speedPriority: 1 }, 'claude-sonnet-5-5'],
  ])('%s', (_name, preferences, expected) => {
    expect(samplingModel(preferences, CONVERSATION_MODEL)).toBe(expected);
  });

  test('a priority family the conversation model is already of keeps the conversation model', () => {
    expect(samplingModel({ speedPriority: 0.9 }, 'claude-haiku-4-5')).toBe('claude-haiku-4-5');
    expect(samplingModel({ intelligencePriority: 1 }, 'claude-opus-4-1-20250805')).toBe('claude-opus-4-1-20250805');
  });

  test('junk from a server is ignored, never thrown on', () => {
    const junk = { hints: [null, 7, { name: 42 }], speedPriority: 'fast' } as unknown as Parameters<typeof samplingModel>[0];
    expect(samplingModel(junk, CONVERSATION_MODEL)).toBe(CONVERSATION_MODEL);
  });
});

describe('sampleMessage', () => {
  let fake: FakeMessagesApi;

  beforeAll(async () => {
    fake = await startFakeMessagesApi();
  });
  afterAll(async () => {
    await fake.close();
  });

  /** One activity attempt. */
  function sample(input: SamplingInput): Promise<SamplingOutput> {
    const claude = createClaudeClient({ apiKey: 'sk-ant-test', baseURL: fake.url });
    return quietActivityEnvironment().run(createSampleMessage({ claude }), input);
  }

  /** The body of the newest request the fake received. */
  function lastBody(): Record<string, unknown> {
    const body = fake.requests[fake.requests.length - 1]?.body;
    if (typeof body !== 'object' || body === null) throw new Error('no request received');
    return body as Record<string, unknown>;
  }

  test('a plain request: model from the hints, max_tokens capped, system, temperature, stop sequences; one text block back', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'Hello!' }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 3 } });
    const before = fake.requests.length;
    const output = await sample(
      sampling({
        messages: HELLO,
        systemPrompt: 'You are terse.',
        maxTokens: 50_000,
        temperature: 0.3,
        stopSequences: ['STOP', '  '],
        modelPreferences: { hints: [{ name: 'gpt-4o' }, { name: 'claude-haiku-4-5' }] },
        includeContext: 'allServers',
        metadata: { user_id: 'server-chosen' },
      }),
    );
    expect(fake.requests.length).toBe(before + 1);
    const body = lastBody();
    expect(validateMessagesRequest(body)).toBeNull();
    expect(body).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 1000,
      system: 'You are terse.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
      temperature: 0.3,
      stop_sequences: ['STOP'],
      stream: true,
    });
    expect(output).toEqual({
      result: { role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'claude-haiku-4-5', stopReason: 'endTurn' },
      usage: { input_tokens: 12, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  test('no maxTokens: the cap; a smaller one: as asked; no preferences: the conversation model', async () => {
    fake.enqueue(
      { kind: 'message', content: [{ type: 'text', text: 'a' }], stop_reason: 'end_turn' },
      { kind: 'message', content: [{ type: 'text', text: 'b' }], stop_reason: 'end_turn' },
    );
    await sample(sampling({ messages: HELLO }, 777));
    expect(lastBody()).toMatchObject({ model: CONVERSATION_MODEL, max_tokens: 777 });
    expect(lastBody()).not.toHaveProperty('system');
    expect(lastBody()).not.toHaveProperty('tools');
    await sample(sampling({ messages: HELLO, maxTokens: 64 }, 777));
    expect(lastBody()).toMatchObject({ max_tokens: 64 });
  });

  test('priorities choose the model when no hint does', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'quick' }], stop_reason: 'end_turn' });
    const output = await sample(sampling({ messages: HELLO, modelPreferences: { hints: [{ name: 'claude' }], speedPriority: 0.9 } }));
    expect(lastBody()).toMatchObject({ model: 'claude-haiku-5-5' });
    expect(output.result).toMatchObject({ model: 'claude-haiku-5-5' });
  });

  test('content: arrays, images, audio, merged same-role messages (MCP 2025-11-25)', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'A red dot.' }], stop_reason: 'end_turn' });
    await sample(
      sampling({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
          { role: 'user', content: { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' } },
          { role: 'assistant', content: { type: 'text', text: 'Let me look.' } },
          { role: 'user', content: { type: 'text', text: 'Well?' } },
        ],
        maxTokens: 100,
      }),
    );
    const body = lastBody();
    expect(validateMessagesRequest(body)).toBeNull();
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'text', text: expect.stringMatching(/audio clip \(audio\/wav\) was left out/) },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Well?' }] },
    ]);
  });

  test('tools: names Claude refuses are mapped and mapped back, toolChoice required → any, tool_use and tool_result mapped; a tool call comes back as an array', async () => {
    fake.enqueue({
      kind: 'message',
      content: [
        { type: 'text', text: 'Checking Shanghai too.' },
        { type: 'tool_use', id: 'toolu_02', name: 'weather_get', input: { city: '上海' } },
      ],
      stop_reason: 'tool_use',
    });
    const output = await sample(
      sampling({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Weather in Beijing and Shanghai?' } },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'weather.get', input: { city: '北京' } }] },
          {
            role: 'user',
            content: [{ type: 'tool_result', toolUseId: 'toolu_01', content: [{ type: 'text', text: 'Sunny, 25°C' }], isError: false }],
          },
        ],
        maxTokens: 200,
        tools: [
          { name: 'weather.get', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
          { name: 'alerts', inputSchema: { type: 'object' } },
        ],
        toolChoice: { mode: 'required' },
      }),
    );
    const body = lastBody();
    expect(validateMessagesRequest(body)).toBeNull();
    expect(body.tools).toEqual([
      { name: 'weather_get', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
      { name: 'alerts', description: expect.stringContaining('alerts'), input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'any' });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Beijing and Shanghai?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'weather_get', input: { city: '北京' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Sunny, 25°C' }] },
    ]);
    expect(output.result).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking Shanghai too.' },
        { type: 'tool_use', id: 'toolu_02', name: 'weather.get', input: { city: '上海' } },
      ],
      model: CONVERSATION_MODEL,
      stopReason: 'toolUse',
    });
  });

  test.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
  ])('toolChoice %s → tool_choice %o', async (mode, expected) => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' });
    const output = await sample(sampling({ messages: HELLO, tools: [{ name: 'alerts', inputSchema: { type: 'object' } }], toolChoice: { mode } }));
    expect(lastBody().tool_choice).toEqual(expected);
    expect(output.result.content).toEqual({ type: 'text', text: 'ok' });
  });

  test('an error tool_result keeps is_error; tool blocks without tools get stand-ins under tool_choice none', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'It failed.' }], stop_reason: 'end_turn' });
    await sample(
      sampling({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Go.' } },
          { role: 'assistant', content: { type: 'tool_use', id: 'toolu_09', name: 'alerts', input: {} } },
          { role: 'user', content: { type: 'tool_result', toolUseId: 'toolu_09', content: [], isError: true } },
        ],
      }),
    );
    const body = lastBody();
    expect(validateMessagesRequest(body)).toBeNull();
    expect(body.messages).toContainEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_09', content: '(no content)', is_error: true }] });
    expect(body).toMatchObject({ tools: [{ name: 'alerts' }], tool_choice: { type: 'none' } });
  });

  test.each([
    ['max_tokens', 'maxTokens'],
    ['stop_sequence', 'stopSequence'],
    ['refusal', 'refusal'],
  ])('stop reason %s → %s', async (claude, mcp) => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'partial' }], stop_reason: claude, ...(claude === 'stop_sequence' ? { stop_sequence: 'STOP' } : {}) });
    const output = await sample(sampling({ messages: HELLO }));
    expect(output.result.stopReason).toBe(mcp);
  });

  test('several text blocks without tools come back as one text block (the tool-less result shape)', async () => {
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'one, ' }, { type: 'text', text: 'two' }], stop_reason: 'end_turn' });
    const output = await sample(sampling({ messages: HELLO }));
    expect(output.result.content).toEqual({ type: 'text', text: 'one, two' });
  });

  describe('failures, classified like callClaude', () => {
    test.each([
      [529, 'claude.overloaded_error'],
      [500, 'claude.api_error'],
    ])('a %i is retryable (%s)', async (status, type) => {
      fake.enqueue({ kind: 'error', status });
      const failure = await failureOf(sample(sampling({ messages: HELLO })));
      expect(failure).toMatchObject({ type, nonRetryable: false });
    });

    test('a 400 is not retried', async () => {
      fake.enqueue({ kind: 'error', status: 400, message: 'bad request' });
      const failure = await failureOf(sample(sampling({ messages: HELLO })));
      expect(failure).toMatchObject({ type: 'claude.invalid_request_error', nonRetryable: true });
    });

    test('an overloaded_error after the stream began is retryable', async () => {
      fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'Hello there, friend.' }], stop_reason: 'end_turn', stream: { errorAfter: { events: 3 } } });
      const failure = await failureOf(sample(sampling({ messages: HELLO })));
      expect(failure).toMatchObject({ type: 'claude.overloaded_error', nonRetryable: false });
    });

    test.each<[string, Record<string, unknown>, RegExp]>([
      ['no messages', { messages: [] }, /at least one/],
      ['a tool_use left unanswered', { messages: [...HELLO, { role: 'assistant', content: { type: 'tool_use', id: 'toolu_x', name: 'alerts', input: {} } }, { role: 'user', content: { type: 'text', text: 'and?' } }] }, /toolu_x/],
      ['a role MCP does not have', { messages: [{ role: 'system', content: { type: 'text', text: 'hi' } }] }, /role "system"/],
      ['a tool whose schema is no object', { messages: HELLO, tools: [{ name: 'bad', inputSchema: { type: 'string' } }] }, /bad/],
      ['a tool listed twice', { messages: HELLO, tools: [{ name: 'a', inputSchema: { type: 'object' } }, { name: 'a', inputSchema: { type: 'object' } }] }, /more than once/],
    ])('%s fails non-retryable before any request', async (_name, params, expected) => {
      const before = fake.requests.length;
      const failure = await failureOf(sample(sampling(params)));
      expect(failure).toMatchObject({ type: 'host.invalid_transcript', nonRetryable: true });
      expect(failure.message).toMatch(expected);
      expect(fake.requests.length).toBe(before);
    });
  });
});
