/**
 * The API's own context strategies end to end (issue 29), with the compiled worker, real Temporal,
 * the weather MCP server and the scripted fake Messages API, which compacts and clears tool uses as
 * the real API does once a request reaches the trigger (src/offline/context-editing-emulation.ts)
 * and refuses a misplaced or edited compaction block with the API's 400:
 * - `compact:50000` with thinking on: the first request (a long message) comes back with a signed
 *   compaction block first; every later request starts at that block, the turn's thinking right
 *   after it, unchanged; `history` still shows everything; `status` counts the compaction and its
 *   tokens are in the usage;
 * - `clear_tool_uses`: the edit and its beta header go out, and only then;
 * - `chat`'s `/thinking` and `/context`: before the first line they shape the conversation it
 *   starts, after it they change the running one;
 * - a large tool result: the guard counts the next request with the token-counting endpoint (the
 *   request as it would go out) and escalates on the count.
 */
import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { signThinking, startFakeMessagesApi, type FakeMessagesApi, type RecordedRequest, type ScriptContentBlock, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { renderHistory } from '../../src/client/render-history';
import { dataConverter } from '../../src/temporal/data-converter';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';
import { startInteractiveCli } from '../support/cli-process';
import { tsServer, weatherServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

const thought = (text: string): ScriptContentBlock => ({ type: 'thinking', thinking: text, signature: signThinking(text) });
const weather = (id: string, city: string): ScriptContentBlock => ({ type: 'tool_use', id, name: 'get_weather', input: { city } });
const reply = (content: ScriptContentBlock[], stop: 'tool_use' | 'end_turn'): ScriptStep & { kind: 'message' } => ({ kind: 'message', content, stop_reason: stop });

interface SentBody {
  messages: MessageParam[];
  context_management?: unknown;
  thinking?: unknown;
}
const bodyOf = (request: RecordedRequest): SentBody => request.body as SentBody;
const blocks = (message: MessageParam | undefined): ContentBlockParam[] => (message === undefined ? [] : typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);
/** Without the breakpoints the host adds to a request. */
const bare = (list: ContentBlockParam[]): unknown[] => list.map(({ cache_control: _mark, ...rest }: ContentBlockParam & { cache_control?: unknown }) => rest);

describe('server-side context strategies', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const taskQueue = `compaction-${randomUUID()}`;

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    conversations = new ConversationClient(new Client({ connection, dataConverter }), { taskQueue });
    worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath: writeMcpConfig([weatherServer(), tsServer('lab', 'test/fixtures/lab-server.ts')]), claudeBaseUrl: fake.url });
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await fake?.close();
  });

  test('compact: the request after compaction starts at the compaction block, thinking kept; history shows everything', async () => {
    // About 60,000 tokens by the fake's count (4 bytes a token): over a trigger of 50,000.
    const log = `北京气象站的记录如下。${'2026-12-01 晴 微风 能见度良好。'.repeat(5200)}`;
    const first = fake.requests.length;
    const replies = [
      reply([thought('A long log; Beijing asked.'), weather('toolu_c1', '北京')], 'tool_use'),
      reply([thought('Beijing is in.'), { type: 'text', text: '北京今天晴。' }], 'end_turn'),
      reply([thought('Shanghai now.'), weather('toolu_c2', '上海')], 'tool_use'),
      reply([thought('Shanghai is in.'), { type: 'text', text: '上海今天多云。' }], 'end_turn'),
    ];
    fake.enqueue(...replies.slice(0, 2));
    const { id, result } = await conversations.start(`${log}\n根据这些记录，北京今天天气怎么样？`, {
      wait: true,
      context: { kind: 'compact', triggerTokens: 50_000 },
      thinking: { type: 'enabled', budgetTokens: 2048 },
    });
    expect(result).toMatchObject({ status: 'completed', text: '北京今天晴。', modelCalls: 2, toolCalls: 1 });
    fake.enqueue(...replies.slice(2));
    expect(await conversations.send(id, '上海呢？')).toMatchObject({ status: 'completed', text: '上海今天多云。', modelCalls: 2 });
    expect(fake.pending()).toBe(0);

    const requests = fake.requests.slice(first);
    expect(requests).toHaveLength(4);
    for (const request of requests) {
      expect(request.headers['anthropic-beta']).toContain('compact-2026-01-12');
      expect(bodyOf(request).context_management).toEqual({ edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } }] });
      expect(bodyOf(request).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    }
    // The first request holds the long message; the answer to it opened with the compaction block.
    expect(JSON.stringify(bodyOf(requests[0]!).messages)).toContain('北京气象站的记录');
    const history = await conversations.history(id);
    const compacted = blocks(history[1]);
    expect(compacted.map((b) => b.type)).toEqual(['compaction', 'thinking', 'tool_use']);
    expect(compacted[0]).toMatchObject({ type: 'compaction', content: expect.stringContaining('Summary (fake Messages API compaction) of 1 messages') });

    // Every later request starts at that block: the reply as it came, its thinking right after the summary.
    for (const request of requests.slice(1)) {
      const sent = bodyOf(request).messages;
      expect(sent[0]?.role).toBe('assistant');
      expect(bare(blocks(sent[0]))).toEqual(compacted);
      // The long message is not sent again (the summary quotes its first words only).
      expect(JSON.stringify(sent)).not.toContain('根据这些记录');
      expect(request.bytes).toBeLessThan(8_000);
    }
    // The second turn's last request: the compaction, the first turn after it, and the second turn, unchanged.
    const last = bodyOf(requests[3]!).messages;
    expect(last.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(bare(blocks(last[4]))).toEqual(replies[2]!.content);

    // The history keeps everything: the long message, the summary, both turns.
    expect(history).toHaveLength(8);
    expect(blocks(history[0]).map((b) => (b.type === 'text' ? b.text : '')).join('')).toContain('北京气象站的记录');
    expect(renderHistory(history)).toMatch(/\[compaction: the API summarised what comes above\] Summary \(fake Messages API compaction\)/);

    const status = await conversations.status(id);
    expect(status.context).toMatchObject({ strategy: 'compact:50000', compactions: 1 });
    // The compaction's own tokens (a `compaction` entry of usage.iterations) are in the totals: the
    // long message was read once, by the compaction, and never again.
    expect(status.usage.inputTokens).toBeGreaterThan(50_000);
    expect(status.context.lastPromptTokens).toBeLessThan(3_000);
    await conversations.end(id);
  }, 180_000);

  test('clear_tool_uses: the edit keeping N tool uses and its beta header; keep_all sends neither', async () => {
    const first = fake.requests.length;
    fake.enqueue(reply([weather('toolu_k1', '广州')], 'tool_use'), reply([{ type: 'text', text: '广州有雨。' }], 'end_turn'));
    const { id } = await conversations.start('广州天气？', { wait: true, context: { kind: 'clear_tool_uses', keepToolUses: 2, triggerTokens: 30_000 } });
    for (const request of fake.requests.slice(first)) {
      expect(request.headers['anthropic-beta']).toContain('context-management-2025-06-27');
      expect(request.headers['anthropic-beta'] ?? '').not.toContain('compact-2026-01-12');
      expect(bodyOf(request).context_management).toEqual({
        edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 30_000 }, keep: { type: 'tool_uses', value: 2 } }],
      });
    }
    expect(await conversations.setContextStrategy(id, { kind: 'keep_all' })).toBe('keep_all');
    const before = fake.requests.length;
    fake.enqueue(reply([{ type: 'text', text: '好的。' }], 'end_turn'));
    await conversations.send(id, '谢谢');
    const plain = fake.requests[before]!;
    expect(plain.headers['anthropic-beta']).toBeUndefined();
    expect(bodyOf(plain).context_management).toBeUndefined();
    await conversations.end(id);
  }, 120_000);

  test('a large tool result: the next request is counted by the API, not estimated, and the guard escalates on the count', async () => {
    const first = fake.requests.length;
    fake.enqueue(reply([{ type: 'tool_use', id: 'toolu_big', name: 'blob', input: { seed: 'count', size: 72_000 } }], 'tool_use'), reply([{ type: 'text', text: '读完了。' }], 'end_turn'));
    // A window of 20,000 tokens: the count (some 18,000) is past 80% of it.
    const { id, result } = await conversations.start('读一下这份大文件', { wait: true, contextWindow: 20_000 });
    expect(result).toMatchObject({ status: 'completed', text: '读完了。', toolCalls: 1 });
    const requests = fake.requests.slice(first);
    expect(requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages/count_tokens', '/v1/messages']);
    // What was counted is what went out next, max_tokens and stream aside.
    const next = { ...(requests[2]!.body as Record<string, unknown>) };
    delete next.max_tokens;
    delete next.stream;
    expect(requests[1]!.body).toEqual(next);
    // The count tripped the guard (keep_all → placeholder_tool_results:2), and the last reply's
    // prompt, still past 80% of the window, tripped it again (→ last_turns:2).
    expect((await conversations.status(id)).context.strategy).toBe('last_turns:2');
    await conversations.end(id);
  }, 120_000);

  test('chat: /thinking and /context set the new conversation\'s options, then change the running one', async () => {
    const first = fake.requests.length;
    fake.enqueue(reply([thought('A greeting.'), { type: 'text', text: '你好！' }], 'end_turn'), reply([{ type: 'text', text: '好的。' }], 'end_turn'));
    const id = `chat-settings-${randomUUID()}`;
    const chat = startInteractiveCli(['chat', '--id', id], { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue });
    try {
      await chat.waitFor('type a message');
      // One line at a time, each once the last is answered.
      const say = async (line: string, answer: string | RegExp): Promise<void> => {
        chat.write(line);
        await chat.waitFor(answer);
      };
      await say('/thinking 2048', 'thinking: 2048 (for the conversation the next line starts)');
      await say('/context compact:60000', 'context: compact:60000 (for the conversation the next line starts)');
      await say('你好', 'claude> 你好！');
      await say('/thinking off', 'thinking: off (from the next turn)');
      await say('/context bogus', /invalid context strategy "bogus"/);
      await say('/context keep_all', 'context: keep_all (from the next Claude call)');
      await say('谢谢', 'claude> 好的。');
      chat.write('/quit');
      expect(await chat.exited).toBe(0);
    } finally {
      chat.kill();
    }
    const [started, next] = fake.requests.slice(first).map(bodyOf);
    expect(started).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60_000 } }] } });
    expect(next).not.toHaveProperty('thinking');
    expect(next).not.toHaveProperty('context_management');
  }, 120_000);
});
