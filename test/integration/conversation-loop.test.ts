/**
 * The durable loop on the real dev server, the real Anthropic SDK against the wire-level fake, and
 * the seed's weather server over stdio. Rule ids (S…) refer to shared/seed/RULES.md.
 */
import { randomUUID } from 'node:crypto';
import { conversationOptions } from '../../src/client/conversation-options';
import { conversationWorkflow } from '../../src/workflows';
import { messagesQuery, sendMessageUpdate, statusQuery } from '../../src/workflows/definitions';
import { weatherServer } from '../support/repo';
import { SEED_TRANSCRIPT, seedReplies } from '../support/seed-transcript';
import { startTestWorker, TEST_API_KEY, type TestWorker } from '../support/test-worker';

const SYSTEM = '你是一个专业的天气助手，回答简洁。';

describe('conversation loop (seed §7.2)', () => {
  let w: TestWorker;
  beforeAll(async () => {
    w = await startTestWorker({ servers: [weatherServer()] });
  });
  afterAll(async () => {
    await w?.stop();
  });

  test('你好 → 北京 (one tool call) → 那上海呢: the third request carries the seed structure', async () => {
    w.fake.enqueue(...seedReplies());
    const handle = await w.client.workflow.start(conversationWorkflow, {
      taskQueue: w.taskQueue,
      workflowId: `seed-${randomUUID()}`,
      args: [{ options: conversationOptions({ system: SYSTEM, promptCache: { enabled: false } }) }],
    });
    const first = await handle.executeUpdate(sendMessageUpdate, { args: ['你好'] });
    expect(first).toMatchObject({ status: 'completed', text: '你好，有什么可以帮你？', modelCalls: 1, toolCalls: 0 });
    const second = await handle.executeUpdate(sendMessageUpdate, { args: ['北京今天天气怎么样'] });
    expect(second).toMatchObject({ status: 'completed', text: '北京今天晴，25°C，适合出门。', modelCalls: 2, toolCalls: 1 });
    const third = await handle.executeUpdate(sendMessageUpdate, { args: ['那上海呢'] });
    expect(third).toMatchObject({ status: 'completed', text: '上海今天多云，22°C。' });

    const requests = w.fake.requests;
    expect(requests).toHaveLength(5);
    // The third user turn's first request: exactly the seed's §7.2 body.
    const seedRequest = requests[3]!;
    expect(seedRequest.headers['x-api-key']).toBe(TEST_API_KEY); // S6
    expect(seedRequest.headers['anthropic-version']).toBe('2023-06-01');
    expect(seedRequest.headers['content-type']).toContain('application/json');
    expect(seedRequest.headers.authorization).toBeUndefined();
    expect(seedRequest.body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      // The seed's body plus `stream: true`: the host streams every call (long generations, live text).
      stream: true,
      system: SYSTEM, // S7: top level, never a message
      // The seed's §7.2 messages exactly (S12, S8: the toolu_ id comes back as tool_use_id, as a user message).
      messages: SEED_TRANSCRIPT,
      tools: [
        {
          name: 'get_weather',
          description: '根据城市名查询实时天气',
          input_schema: {
            type: 'object',
            properties: { city: { type: 'string', description: '城市名，如北京' } },
            required: ['city'],
          },
        },
      ],
    });
    // S12: tools on every request.
    for (const request of requests) expect((request.body as { tools: unknown[] }).tools).toHaveLength(1);
    const messages = await handle.query(messagesQuery);
    expect(messages).toHaveLength(10);
    expect(messages[8]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_02SH', content: '上海今天多云，22°C' }] });
    const status = await handle.query(statusQuery);
    expect(status).toMatchObject({ state: 'idle', turnsCompleted: 3, modelCalls: 5, toolCalls: 2, toolErrors: 0, lastStopReason: 'end_turn' });
    expect(status.usage.inputTokens).toBeGreaterThan(0);
  });
});
