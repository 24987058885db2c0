/**
 * The `countTokens` activity in Temporal's mock activity context, against the fake Messages API:
 * it counts the request a Claude call with the same input would send (GA or beta alike), and a
 * worker on the offline stand-in skips it without a request.
 */
import { createCountTokens } from '../../src/activities/count-tokens';
import type { ClaudeCallInput } from '../../src/activities/types';
import { createClaudeClient } from '../../src/claude/create-claude-client';
import type { MessageParam, Tool } from '../../src/conversation/types';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { quietActivityEnvironment } from '../fixtures/mock-activities';
import { SEED_TRANSCRIPT } from '../support/seed-transcript';

const WEATHER: Tool = { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const INPUT: ClaudeCallInput = {
  transcript: { workflowId: 'conversation-test', runId: 'run', messageCount: 0, digest: '' },
  catalogDigest: 'catalog',
  model: 'claude-sonnet-4-6',
  maxTokens: 256,
  context: { strategy: { kind: 'keep_all' }, summaryCovers: 0 },
  promptCache: { enabled: true },
};

describe('countTokens', () => {
  let fake: FakeMessagesApi;
  beforeAll(async () => {
    fake = await startFakeMessagesApi();
  });
  afterAll(async () => fake.close());

  const count = (enabled: boolean, input: ClaudeCallInput = INPUT, messages: readonly MessageParam[] = SEED_TRANSCRIPT) =>
    quietActivityEnvironment().run(
      createCountTokens({
        claude: createClaudeClient({ apiKey: 'sk-ant-test', baseURL: fake.url }),
        transcripts: { messages: () => Promise.resolve([...messages]), tools: () => Promise.resolve([WEATHER]), summary: () => Promise.resolve(undefined) },
        enabled,
      }),
      input,
    );

  test('counts the request the call would send: its fields but max_tokens, its breakpoints included', async () => {
    const before = fake.requests.length;
    const counted = await count(true);
    const request = fake.requests[before]!;
    expect(request.path).toBe('/v1/messages/count_tokens');
    expect(counted).toEqual({ inputTokens: Math.ceil(request.bytes / 4) });
    expect(request.body).not.toHaveProperty('max_tokens');
    expect(request.body).toMatchObject({ model: INPUT.model, tools: [expect.objectContaining({ name: 'get_weather' })] });
    expect(JSON.stringify(request.body)).toContain('cache_control');
  });

  test('a compacting conversation is counted through the beta endpoint, with its edit and header', async () => {
    const before = fake.requests.length;
    await count(true, { ...INPUT, context: { strategy: { kind: 'compact' }, summaryCovers: 0 } });
    const request = fake.requests[before]!;
    expect(request.headers['anthropic-beta']).toContain('compact-2026-01-12');
    expect(request.body).toMatchObject({ context_management: { edits: [{ type: 'compact_20260112' }] } });
  });

  test('offline: skipped, and nothing is sent', async () => {
    const before = fake.requests.length;
    expect(await count(false)).toEqual({ skipped: 'the offline stand-in has no token-counting endpoint' });
    expect(fake.requests.length).toBe(before);
  });
});
