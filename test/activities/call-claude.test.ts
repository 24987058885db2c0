/**
 * The `callClaude` activity in Temporal's mock activity context, against the scripted fake Messages
 * API: what it sends, and that a transcript the real API would refuse fails before any request.
 */
import { createCallClaude } from '../../src/activities/call-claude';
import type { ClaudeCallInput, ClaudeReply } from '../../src/activities/types';
import { createClaudeClient } from '../../src/claude/create-claude-client';
import type { MessageParam, Tool } from '../../src/conversation/types';
import { validateMessagesRequest } from '../../src/offline';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { failureOf, quietActivityEnvironment } from '../fixtures/mock-activities';
import { SEED_TRANSCRIPT } from '../support/seed-transcript';

const WEATHER: Tool = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

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

  /** One activity attempt over `messages` and the catalogue's `tools`, as if read from the workflow. */
  function call(messages: readonly MessageParam[], tools: readonly Tool[] = [WEATHER]): Promise<ClaudeReply> {
    const activity = createCallClaude({
      claude: createClaudeClient({ apiKey: 'sk-ant-test', baseURL: fake.url }),
      transcripts: {
        messages: () => Promise.resolve([...messages]),
        tools: () => Promise.resolve([...tools]),
        summary: () => Promise.resolve(undefined),
      },
    });
    return quietActivityEnvironment().run(activity, INPUT);
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
});
