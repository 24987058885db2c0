/**
 * Extended thinking on the wire (issue 29), end to end: the compiled worker, real Temporal (the
 * run's dev server), the weather MCP server, and the scripted fake Messages API playing Claude with
 * signed thinking blocks (it refuses an edited or dropped one with the real API's 400). A thinking
 * conversation of two turns, each with two tool rounds: every request carries `thinking`, and every
 * assistant message it carries is the reply as Claude sent it, thinking blocks first, signatures
 * included. The same under each context strategy; then `setThinking` between turns.
 */
import { Client, Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { signThinking, startFakeMessagesApi, type FakeMessagesApi, type RecordedRequest, type ScriptContentBlock, type ScriptStep } from '../../src/testing';
import { errorLine } from '../../src/client/cli';
import { ConversationClient } from '../../src/client/conversation-client';
import type { ConversationEvent } from '../../src/client/conversation-events';
import { dataConverter } from '../../src/temporal/data-converter';
import type { ContextStrategy } from '../../src/context/context-strategy';
import { formatContextStrategy } from '../../src/context/strategy-spec';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';
import { weatherServer } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

const BUDGET = { type: 'enabled', budget_tokens: 2048 } as const;

const thought = (text: string): ScriptContentBlock => ({ type: 'thinking', thinking: text, signature: signThinking(text) });
const weather = (id: string, city: string): ScriptContentBlock => ({ type: 'tool_use', id, name: 'get_weather', input: { city } });
const reply = (content: ScriptContentBlock[], stop: 'tool_use' | 'end_turn'): ScriptStep & { kind: 'message' } => ({ kind: 'message', content, stop_reason: stop });

/** One turn's replies: two tool rounds (thinking before each call; one redacted block), then the answer. */
function turnReplies(tag: string, cities: [string, string]): Array<ScriptStep & { kind: 'message' }> {
  return [
    reply([thought(`${tag}: ${cities[0]} first.`), weather(`toolu_${tag}_1`, cities[0])], 'tool_use'),
    reply([{ type: 'redacted_thinking', data: `EmwKAhgBEgy${tag}Redacted` }, thought(`${tag}: now ${cities[1]}.`), { type: 'text', text: `再查${cities[1]}。` }, weather(`toolu_${tag}_2`, cities[1])], 'tool_use'),
    reply([thought(`${tag}: both are in.`), { type: 'text', text: `${cities[0]}和${cities[1]}都查好了。` }], 'end_turn'),
  ];
}

function bodyOf(request: RecordedRequest): { thinking?: unknown; output_config?: unknown; messages: MessageParam[] } {
  return request.body as { thinking?: unknown; output_config?: unknown; messages: MessageParam[] };
}

function blocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

describe('extended thinking on the wire', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const taskQueue = `thinking-${randomUUID()}`;

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    conversations = new ConversationClient(new Client({ connection, dataConverter }), { taskQueue });
    worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath: writeMcpConfig([weatherServer()]), claudeBaseUrl: fake.url });
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await fake?.close();
  });

  /**
   * Every assistant message of every request is one of the replies as scripted (nothing added,
   * nothing dropped, the same order), and each request of a turn's tool loop carries that turn's
   * replies so far.
   */
  function expectRepliesUnchanged(requests: RecordedRequest[], replies: Array<ScriptStep & { kind: 'message' }>): void {
    const sent = new Set(replies.map((r) => JSON.stringify(r.content)));
    for (const request of requests) {
      for (const message of bodyOf(request).messages) {
        if (message.role !== 'assistant') continue;
        expect(sent).toContain(JSON.stringify(blocks(message)));
        expect(blocks(message)[0]?.type).toMatch(/^(redacted_)?thinking$/);
      }
    }
  }

  const STRATEGIES: ContextStrategy[] = [
    { kind: 'keep_all' },
    { kind: 'last_turns', turns: 1 },
    { kind: 'placeholder_tool_results', keepRecentTurns: 1 },
    { kind: 'summarize', keepRecentTurns: 1 },
    // The API's own: under their triggers here, so everything goes (test/integration/compaction.test.ts compacts).
    { kind: 'compact' },
    { kind: 'clear_tool_uses', keepToolUses: 1 },
  ];

  test.each(STRATEGIES.map((s) => [formatContextStrategy(s), s] as const))('two turns of two tool rounds each, context %s', async (_name, context) => {
    const first = turnReplies('t1', ['北京', '上海']);
    const second = turnReplies('t2', ['广州', '深圳']);
    const summary = reply([{ type: 'text', text: '用户问了北京和上海的天气：北京晴，上海多云。' }], 'end_turn');
    const before = fake.requests.length;
    fake.enqueue(...first);
    const { id, result } = await conversations.start('北京和上海天气怎么样？', { wait: true, thinking: { type: 'enabled', budgetTokens: BUDGET.budget_tokens }, context });
    expect(result).toMatchObject({ status: 'completed', text: '北京和上海都查好了。', modelCalls: 3, toolCalls: 2 });
    fake.enqueue(...(context.kind === 'summarize' ? [summary] : []), ...second);
    expect(await conversations.send(id, '广州和深圳呢？')).toMatchObject({ status: 'completed', text: '广州和深圳都查好了。', modelCalls: 3, toolCalls: 2 });
    expect(fake.pending()).toBe(0);

    const requests = fake.requests.slice(before);
    // The summariser's own call sends no thinking and no assistant message; every turn call does both.
    const calls = requests.filter((r) => bodyOf(r).messages.some((m) => m.role === 'assistant') || bodyOf(r).thinking !== undefined);
    expect(calls).toHaveLength(6);
    for (const request of calls) {
      expect(bodyOf(request)).toMatchObject({ thinking: BUDGET, max_tokens: BUDGET.budget_tokens + 1024 });
      // A budget with tools thinks between the calls: the interleaved-thinking beta, beside any other.
      expect(request.headers['anthropic-beta']?.split(',').map((b) => b.trim())).toContain('interleaved-thinking-2025-05-14');
    }
    expectRepliesUnchanged(calls, [...first, ...second]);

    // Within each turn's loop, the request carries that turn's replies so far, as the fake sent them.
    const lastOfTurn2 = bodyOf(calls[5]!).messages;
    expect(lastOfTurn2.slice(-5).filter((m) => m.role === 'assistant').map(blocks)).toEqual(second.slice(0, 2).map((r) => r.content));
    const t1InTurn2 = JSON.stringify(lastOfTurn2).includes('t1: 北京 first.');
    // keep_all, placeholder_tool_results and the API's own (under their triggers) send the first turn's replies too (its thinking included); the others do not.
    expect(t1InTurn2).toBe(!['last_turns', 'summarize'].includes(context.kind));
    await conversations.end(id);
  });

  test('setThinking between turns: the next turn goes out adaptive with its effort; off sends no thinking field', async () => {
    const before = fake.requests.length;
    fake.enqueue(...turnReplies('t1', ['北京', '上海']));
    const { id } = await conversations.start('北京和上海天气怎么样？', { wait: true, thinking: { type: 'enabled', budgetTokens: 2048 }, maxTokens: 16_000 });
    expect(await conversations.setThinking(id, { type: 'adaptive', effort: 'high' })).toBe('adaptive:high');
    expect((await conversations.status(id)).thinking).toBe('adaptive:high');
    // Streamed slowly enough for a heartbeat or two: the follower sees the thinking once, before the answer.
    const slowThought = `A thank-you. ${'Nothing to look up. '.repeat(6)}`;
    fake.enqueue({ ...reply([thought(slowThought), { type: 'text', text: '不客气。' }], 'end_turn'), stream: { chunkChars: 8, eventGapMs: 60 } });
    const events: ConversationEvent[] = [];
    expect(await conversations.send(id, '谢谢', { onProgress: (e) => events.push(e) })).toMatchObject({ status: 'completed', text: '不客气。' });
    const shown = events.flatMap((e) => (e.type === 'claude_thinking' || e.type === 'claude_text' ? [e] : []));
    expect(shown.filter((e) => e.type === 'claude_thinking').map((e) => e.text).join('')).toBe(slowThought);
    expect(shown.filter((e) => e.type === 'claude_text').map((e) => e.text).join('')).toBe('不客气。');
    const kinds = shown.map((e) => e.type);
    expect(kinds.indexOf('claude_text')).toBeGreaterThan(kinds.lastIndexOf('claude_thinking'));
    // Refused by the update's validator, nothing recorded: the reason is the failure's cause.
    const refused = await conversations.setThinking(id, { type: 'enabled', budgetTokens: 16_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(errorLine(refused)).toMatch(/must be less than maxTokens \(16000\)/);
    expect(await conversations.setThinking(id, null)).toBe('off');
    fake.enqueue(reply([{ type: 'text', text: '再见。' }], 'end_turn'));
    expect(await conversations.send(id, '再见')).toMatchObject({ status: 'completed', text: '再见。' });
    await conversations.end(id);

    // Adaptive thinking interleaves by itself; off thinks not at all: no beta header either way.
    for (const request of fake.requests.slice(before + 3)) expect(request.headers['anthropic-beta']).toBeUndefined();
    const [adaptive, off] = fake.requests.slice(before + 3).map(bodyOf);
    expect(adaptive).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
    expect(off).not.toHaveProperty('thinking');
    expect(off).not.toHaveProperty('output_config');
    // The thinking of earlier turns still goes back as it came (the API strips it from the context itself).
    expect(JSON.stringify(off?.messages)).toContain(signThinking(slowThought));
  });
});
