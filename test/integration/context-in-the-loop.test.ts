/**
 * Issue 5 in the real loop: prompt caching on by default, each context strategy, the summariser
 * activity and the context guard — asserted on what reaches the fake Messages API, with the full
 * history still queryable.
 */
import type { ScriptStep } from '../../src/testing';
import type { ContextStrategy } from '../../src/context/context-strategy';
import type { MessageParam } from '../../src/conversation/types';
import { messagesQuery, sendMessageUpdate, statusQuery } from '../../src/workflows/definitions';
import { startConversation, messagesOf, validationErrors } from '../support/loop-helpers';
import { tsServer, weatherServer } from '../support/repo';
import { startTestWorker, type TestWorker } from '../support/test-worker';

interface Body {
  system?: unknown;
  tools?: Array<Record<string, unknown>>;
  messages: MessageParam[];
}

const say = (text: string, usage?: Record<string, number>): ScriptStep => ({
  kind: 'message',
  content: [{ type: 'text', text }],
  stop_reason: 'end_turn',
  ...(usage ? { usage } : {}),
});
const weather = (city: string): ScriptStep => ({
  kind: 'message',
  content: [{ type: 'tool_use', name: 'get_weather', input: { city } }],
  stop_reason: 'tool_use',
});
const blob = (seed: string): ScriptStep => ({
  kind: 'message',
  content: [{ type: 'tool_use', name: 'blob', input: { seed, size: 600 } }],
  stop_reason: 'tool_use',
});

/** Paths of every cache_control marker in a request body. */
function breakpoints(body: Body): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'cache_control') found.push(path);
        else walk(v, path ? `${path}.${key}` : key);
      }
    }
  };
  walk(body, '');
  return found;
}

describe('context management in the loop', () => {
  let w: TestWorker;
  beforeAll(async () => {
    w = await startTestWorker({ servers: [weatherServer(), tsServer('lab', 'test/fixtures/lab-server.ts')] });
  });
  afterAll(async () => {
    await w?.stop();
  });

  async function seedChat(context: ContextStrategy | undefined, cache: boolean): Promise<{ bodies: Body[]; stored: MessageParam[] }> {
    const from = w.fake.requests.length;
    w.fake.enqueue(say('你好，有什么可以帮你？'), weather('北京'), say('北京晴。'), weather('上海'), say('上海多云。'));
    const handle = await startConversation(w, {
      system: '你是一个专业的天气助手，回答简洁。',
      promptCache: { enabled: cache },
      ...(context ? { context } : {}),
    });
    for (const text of ['你好', '北京今天天气怎么样', '那上海呢']) {
      expect(await handle.executeUpdate(sendMessageUpdate, { args: [text] })).toMatchObject({ status: 'completed' });
    }
    const requests = w.fake.requests.slice(from);
    expect(validationErrors(requests)).toEqual(requests.map(() => null));
    return { bodies: requests.map((r) => r.body as Body), stored: await handle.query(messagesQuery) };
  }

  test('prompt caching is on by default: breakpoints on the last tool, the system prompt and the moving end', async () => {
    const { bodies } = await seedChat(undefined, true);
    const third = bodies[3]!;
    // The 4th breakpoint marks where the previous request ended, so its cache entry is found again.
    expect(breakpoints(third)).toEqual(['system[0]', 'messages[4].content[0]', 'messages[6].content[0]', `tools[${third.tools!.length - 1}]`]);
    expect(third.system).toEqual([{ type: 'text', text: '你是一个专业的天气助手，回答简洁。', cache_control: { type: 'ephemeral' } }]);
    expect(third.messages[6]).toEqual({ role: 'user', content: [{ type: 'text', text: '那上海呢', cache_control: { type: 'ephemeral' } }] });
    // The moving end moves: the previous request's end is no longer marked in the next one's copy.
    expect(breakpoints(bodies[4]!)).toContain('messages[8].content[0]');
  });

  test('keep_all with caching off sends the stored history exactly', async () => {
    const { bodies, stored } = await seedChat({ kind: 'keep_all' }, false);
    expect(breakpoints(bodies[3]!)).toEqual([]);
    expect(bodies[3]!.messages).toEqual(stored.slice(0, 7));
  });

  test('last_turns:1 sends only the current turn; the full history stays queryable', async () => {
    const { bodies, stored } = await seedChat({ kind: 'last_turns', turns: 1 }, false);
    expect(bodies[3]!.messages).toEqual([{ role: 'user', content: '那上海呢' }]);
    // Within the turn the tool_use/tool_result pair travels together.
    expect(bodies[4]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(stored).toHaveLength(10);
  });

  test('placeholder_tool_results:1 replaces older tool results, keeps ids and pairing', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(blob('one'), say('first done'), blob('two'), say('second done'));
    const handle = await startConversation(w, { context: { kind: 'placeholder_tool_results', keepRecentTurns: 1 } });
    await handle.executeUpdate(sendMessageUpdate, { args: ['first'] });
    await handle.executeUpdate(sendMessageUpdate, { args: ['second'] });
    const requests = w.fake.requests.slice(from);
    expect(validationErrors(requests)).toEqual([null, null, null, null]);
    const old = messagesOf(requests[3])[2] as { content: Array<{ type: string; tool_use_id: string; content: string }> };
    expect(old.content[0]).toMatchObject({ type: 'tool_result', content: '[tool result of blob omitted: 600 chars]' });
    const recent = messagesOf(requests[3])[6] as { content: Array<{ content: string }> };
    expect(recent.content[0]?.content).toHaveLength(600);
    const stored = await handle.query(messagesQuery);
    expect((stored[2] as { content: Array<{ content: string }> }).content[0]?.content).toHaveLength(600);
  });

  test('summarize:1 folds older turns into a summary written by a Claude call (an activity)', async () => {
    const from = w.fake.requests.length;
    // Requests without tools are the summariser's; the others follow the conversation's script.
    const conversation: ScriptStep[] = [say('你好！'), weather('北京'), say('北京晴。'), weather('上海'), say('上海多云。')];
    let summaries = 0;
    const model: ScriptStep = {
      kind: 'respond',
      respond: (request) => {
        // Keeps exactly one step queued while the conversation has replies left, so none leaks
        // into the next test.
        const isSummary = (request.body as Body).tools === undefined;
        const next = isSummary ? say(`摘要${++summaries}：用户问了北京天气：晴。`) : conversation.shift();
        if (!next) throw new Error('script ran out');
        if (conversation.length > 0) w.fake.enqueue(model);
        return next;
      },
    };
    w.fake.enqueue(model);
    const handle = await startConversation(w, { context: { kind: 'summarize', keepRecentTurns: 1 } });
    for (const text of ['你好', '北京今天天气怎么样', '那上海呢']) {
      expect(await handle.executeUpdate(sendMessageUpdate, { args: [text] })).toMatchObject({ status: 'completed' });
    }
    const bodies = w.fake.requests.slice(from).map((r) => r.body as Body);
    const summaryRequests = bodies.filter((b) => b.tools === undefined);
    expect(summaries).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(summaryRequests[0]!.messages)).toContain('你好');
    // The last request of the last turn: the summary stands for the older turns, then the recent turn.
    const last = bodies[bodies.length - 1]!;
    const first = last.messages[0] as { role: string; content: Array<{ type: string; text: string }> };
    expect(first.role).toBe('user');
    const opening = first.content.map((b) => b.text).join('\n');
    expect(opening).toContain('[Summary of the earlier conversation]');
    expect(opening).toContain(`摘要${summaries}：用户问了北京天气：晴。`);
    expect(JSON.stringify(last.messages)).toContain('那上海呢');
    expect(JSON.stringify(last.messages)).not.toContain('北京今天天气怎么样');
    expect(validationErrors(w.fake.requests.slice(from))).toEqual(bodies.map(() => null));
    const status = await handle.query(statusQuery);
    expect(status.context).toMatchObject({ strategy: 'summarize:1' });
    expect(status.context.summaryCovers).toBeGreaterThan(0);
    expect(await handle.query(messagesQuery)).toHaveLength(10);
  });

  test('the guard escalates the strategy before the window is exceeded; cost and cache usage are totalled', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      say('big prompt', { input_tokens: 700, cache_read_input_tokens: 150, cache_creation_input_tokens: 20, output_tokens: 10 }),
      say('smaller now', { input_tokens: 100, output_tokens: 5 }),
    );
    const handle = await startConversation(w, { contextWindow: 1000 });
    await handle.executeUpdate(sendMessageUpdate, { args: ['one'] });
    let status = await handle.query(statusQuery);
    expect(status.context).toMatchObject({ strategy: 'placeholder_tool_results:2', lastPromptTokens: 870, contextWindow: 1000 });
    await handle.executeUpdate(sendMessageUpdate, { args: ['two'] });
    status = await handle.query(statusQuery);
    expect(status.usage).toEqual({ inputTokens: 800, outputTokens: 15, cacheCreationInputTokens: 20, cacheReadInputTokens: 150 });
    expect(status.cost.priced).toBe(true);
    expect(status.cost.usd).toBeGreaterThan(0);
    expect(w.fake.requests.slice(from)).toHaveLength(2);
  });
});
