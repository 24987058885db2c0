/**
 * Extended thinking under every context strategy (issue 29): what is sent keeps the thinking blocks
 * of the current turn exactly (signature included) at the head of each of its assistant messages,
 * never edits an assistant message of an older turn either (a turn goes whole or not at all, or
 * into the summary), never puts a cache breakpoint on a thinking block, and passes the fake API's
 * thinking checks (src/offline/validate-thinking.ts): the 400 a host gets when it drops them.
 */
import { withCacheBreakpoints } from '../../src/claude/cache-breakpoints';
import { applyContextStrategy, type ContextStrategy } from '../../src/context/context-strategy';
import { escalate } from '../../src/context/escalate-strategy';
import type { ContextSummary } from '../../src/context/context-summary';
import { splitForSummary } from '../../src/context/summary-split';
import { leadsWithThinking, withThinkingTurnStart } from '../../src/context/thinking-view';
import { turnStarts } from '../../src/context/turn-boundaries';
import { assertValidTranscript } from '../../src/context/validate-pairing';
import { toolResultsMessage, withUserText } from '../../src/conversation/transcript';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';
import { signThinking, validateMessagesRequest } from '../../src/offline';
import { deepFreeze, randomSource, TOOLS } from './random-transcripts';

const thinking = (text: string): ContentBlockParam => ({ type: 'thinking', thinking: text, signature: signThinking(text) });
const redacted = (n: number): ContentBlockParam => ({ type: 'redacted_thinking', data: `EmwKAhgBEgy${n}encrypted` });
const call = (id: string, city: string): ContentBlockParam => ({ type: 'tool_use', id, name: 'get_weather', input: { city } });
const result = (id: string, text: string): MessageParam => toolResultsMessage([{ type: 'tool_result', tool_use_id: id, content: text }]);

/**
 * Three turns with thinking on, as the workflow stores them: a turn with two tool rounds (interleaved
 * thinking before each call, one of them redacted), a text-only turn, and the current turn in the
 * middle of its tool loop (its last message answers its second call).
 */
const STORED: MessageParam[] = deepFreeze([
  { role: 'user', content: '北京和上海今天天气怎么样？' },
  { role: 'assistant', content: [thinking('The user asks for two cities: Beijing first.'), call('toolu_t1a', '北京')] },
  result('toolu_t1a', '北京今天晴，25°C'),
  { role: 'assistant', content: [redacted(1), thinking('Now Shanghai.'), { type: 'text', text: '再查上海。' }, call('toolu_t1b', '上海')] },
  result('toolu_t1b', '上海今天多云，22°C'),
  { role: 'assistant', content: [thinking('Both are in.'), { type: 'text', text: '北京晴，上海多云。' }] },
  { role: 'user', content: '谢谢' },
  { role: 'assistant', content: [thinking('A thank-you.'), { type: 'text', text: '不客气。' }] },
  { role: 'user', content: '广州和深圳呢？' },
  { role: 'assistant', content: [thinking('Guangzhou first.'), call('toolu_t3a', '广州')] },
  result('toolu_t3a', '广州今天有雨，28°C'),
  { role: 'assistant', content: [thinking('Then Shenzhen.'), call('toolu_t3b', '深圳')] },
  result('toolu_t3b', '深圳今天晴，30°C'),
]);

/** A summary of the turns before the last `keep` (as the summariser would write one). */
function summaryOf(messages: readonly MessageParam[], keep: number): ContextSummary | undefined {
  const split = splitForSummary(messages, keep);
  return split.coveredMessages > 0 ? { text: `Earlier: ${split.older.length} messages about the weather.`, coveredMessages: split.coveredMessages } : undefined;
}

/** The view a Claude call sends: the strategy, the thinking turn start (thinking on), the cache breakpoints. */
function sentView(messages: readonly MessageParam[], strategy: ContextStrategy): MessageParam[] {
  const summary = strategy.kind === 'summarize' ? summaryOf(messages, strategy.keepRecentTurns) : undefined;
  const view = withThinkingTurnStart(applyContextStrategy(messages, strategy, summary));
  return withCacheBreakpoints({ messages: view, tools: TOOLS }, { enabled: true }).messages;
}

/** A block without its cache breakpoint: the breakpoints are the only thing the request adds. */
function unmarked(block: ContentBlockParam): ContentBlockParam {
  if (!('cache_control' in block)) return block;
  const copy: ContentBlockParam = { ...block };
  delete (copy as { cache_control?: unknown }).cache_control;
  return copy;
}

function blocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** What every view must satisfy when thinking is on. */
function expectThinkingKept(stored: readonly MessageParam[], sent: MessageParam[]): void {
  assertValidTranscript(sent);
  // The fake API's checks, with a budget: signatures, the current tool loop starts with thinking.
  expect(validateMessagesRequest({ model: 'claude-sonnet-4-5', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: sent, tools: TOOLS })).toBeNull();
  // The current turn, from its user message on, is sent as stored (breakpoints aside).
  const start = turnStarts(stored).at(-1)!;
  const tail = stored.slice(start + 1);
  const sentTail = sent.slice(sent.length - tail.length);
  expect(sentTail.map((m) => ({ role: m.role, content: blocks(m).map(unmarked) }))).toEqual(tail.map((m) => ({ role: m.role, content: blocks(m) })));
  for (const message of sentTail) if (message.role === 'assistant') expect(leadsWithThinking(message)).toBe(true);
  // Any assistant message sent is one stored, unedited: thinking goes only with its whole turn.
  const storedAssistants = stored.filter((m) => m.role === 'assistant').map((m) => JSON.stringify(m));
  for (const message of sent) {
    if (message.role !== 'assistant') continue;
    expect(storedAssistants).toContain(JSON.stringify({ role: 'assistant', content: blocks(message).map(unmarked) }));
  }
  // No breakpoint on a thinking block.
  for (const message of sent) {
    for (const block of blocks(message)) {
      if (block.type === 'thinking' || block.type === 'redacted_thinking') expect(block).not.toHaveProperty('cache_control');
    }
  }
}

const STRATEGIES: ContextStrategy[] = [
  { kind: 'keep_all' },
  { kind: 'last_turns', turns: 1 },
  { kind: 'last_turns', turns: 2 },
  { kind: 'placeholder_tool_results', keepRecentTurns: 1 },
  { kind: 'placeholder_tool_results', keepRecentTurns: 2 },
  { kind: 'summarize', keepRecentTurns: 1 },
  { kind: 'summarize', keepRecentTurns: 2 },
  { kind: 'compact' },
  { kind: 'clear_tool_uses', keepToolUses: 1 },
];

describe('every strategy keeps the current turn\'s thinking exactly', () => {
  test.each(STRATEGIES.map((s) => [JSON.stringify(s), s] as const))('%s', (_name, strategy) => {
    const sent = sentView(STORED, strategy);
    expectThinkingKept(STORED, sent);
  });

  test('keep_all sends every thinking block of every turn, redacted ones included, in place', () => {
    const sent = sentView(STORED, { kind: 'keep_all' });
    expect(sent.map((m) => ({ role: m.role, content: blocks(m).map(unmarked) }))).toEqual(STORED.map((m) => ({ role: m.role, content: blocks(m) })));
  });

  test('last_turns:1 drops the older turns whole, their thinking with them (the API needs only the current turn\'s)', () => {
    const sent = sentView(STORED, { kind: 'last_turns', turns: 1 });
    expect(sent).toHaveLength(5);
    expect(JSON.stringify(sent)).not.toContain('Beijing first');
  });

  test('placeholder_tool_results:1 shortens older results only; every assistant message goes as stored', () => {
    const long = deepFreeze([
      ...STORED.slice(0, 2),
      result('toolu_t1a', `北京今天晴，25°C ${'详细预报 '.repeat(40)}`),
      ...STORED.slice(3),
    ]);
    const sent = sentView(long, { kind: 'placeholder_tool_results', keepRecentTurns: 1 });
    expect(JSON.stringify(sent[2])).toContain('[tool result of get_weather omitted');
    expectThinkingKept(long, sent);
  });

  test('summarize:1 folds the older turns (thinking left out of the summariser\'s prompt) and keeps the current turn', () => {
    const sent = sentView(STORED, { kind: 'summarize', keepRecentTurns: 1 });
    expect(JSON.stringify(sent[0])).toContain('[Summary of the earlier conversation]');
    expect(sent).toHaveLength(5);
  });

  test('compact: a compacted conversation is sent from its compaction block, the turn\'s thinking right after it, unchanged', () => {
    // The API compacted on the current turn's first call: its reply opens with the summary.
    const summary = { type: 'compaction', content: 'Earlier: Beijing sunny, Shanghai cloudy; thanks said.', encrypted_content: null, signature: 'sig-c1' } as unknown as ContentBlockParam;
    const compacted = deepFreeze(STORED.map((m, i) => (i === 9 ? { role: 'assistant' as const, content: [summary, ...blocks(m)] } : m)));
    const sent = sentView(compacted, { kind: 'compact' });
    expect(sent).toHaveLength(4);
    expect(blocks(sent[0]!).map(unmarked)).toEqual(blocks(compacted[9]!));
    expectThinkingKept(compacted, sent);
    // Any other strategy sends the full history the workflow kept, without the summary (no beta needed).
    const full = sentView(compacted, { kind: 'keep_all' });
    expect(full.map((m) => ({ role: m.role, content: blocks(m).map(unmarked) }))).toEqual(STORED.map((m) => ({ role: m.role, content: blocks(m) })));
  });

  test('the guard\'s escalations (and the prompt-too-long recovery, the same steps) keep it at every step', () => {
    for (const first of STRATEGIES) {
      let strategy = first;
      for (let step = 0; step < 5; step++) {
        expectThinkingKept(STORED, sentView(STORED, strategy));
        strategy = escalate(strategy);
      }
    }
  });
});

describe('random thinking conversations (property)', () => {
  /** A conversation whose every reply starts with thinking (interleaved), sometimes redacted; the current turn mid-loop or at its start. */
  function thinkingTranscript(seed: number): MessageParam[] {
    const next = randomSource(seed);
    let messages: MessageParam[] = [];
    let ids = 0;
    const reply = (extra: ContentBlockParam[]): ContentBlockParam[] => [
      ...(next() < 0.2 ? [redacted(seed)] : []),
      thinking(`thought ${seed}.${++ids}`),
      ...extra,
    ];
    const round = (): void => {
      const id = `toolu_${seed}_${++ids}`;
      messages = [...messages, { role: 'assistant', content: reply([call(id, '北京')]) }, result(id, `result ${'x'.repeat(Math.floor(next() * 400))}`)];
    };
    const turns = 1 + Math.floor(next() * 5);
    for (let turn = 0; turn < turns; turn++) {
      messages = withUserText(messages, `问题 ${turn}`);
      const rounds = Math.floor(next() * 3);
      for (let r = 0; r < rounds; r++) round();
      if (next() < 0.15) break; // iteration limit: the turn ends on results, the next text joins them
      messages = [...messages, { role: 'assistant', content: reply([{ type: 'text', text: `回答 ${turn}` }]) }];
    }
    messages = withUserText(messages, '现在呢？');
    const rounds = Math.floor(next() * 3);
    for (let r = 0; r < rounds; r++) round();
    return deepFreeze(messages);
  }

  test('200 histories × every strategy and its escalations', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const stored = thinkingTranscript(seed);
      for (const first of STRATEGIES) {
        let strategy = first;
        for (let step = 0; step < 3; step++) {
          expectThinkingKept(stored, sentView(stored, strategy));
          strategy = escalate(strategy);
        }
      }
    }
  });
});

describe('withThinkingTurnStart: a turn that opens on a thinking-less call\'s results', () => {
  /** A turn that hit the iteration limit with thinking off; then thinking on, and a new turn. */
  const LIMITED: MessageParam[] = deepFreeze([
    { role: 'user', content: '一直查北京' },
    { role: 'assistant', content: [{ type: 'text', text: '查一下。' }, call('toolu_l1', '北京')] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_l1', content: '[host] Not run: limit reached.', is_error: true },
        { type: 'text', text: '好了，别查了' },
      ],
    },
  ]);

  test('the fake API refuses it as sent (the real API\'s 400), and takes the view', () => {
    const request = (messages: MessageParam[]) => ({ model: 'm', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, messages, tools: TOOLS });
    expect(validateMessagesRequest(request([...LIMITED]))).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\./);
    const view = withThinkingTurnStart([...LIMITED]);
    expect(view).toEqual([
      LIMITED[0],
      { role: 'assistant', content: [{ type: 'text', text: '查一下。' }, { type: 'text', text: '[called the tool get_weather with {"city":"北京"}]' }] },
      { role: 'user', content: [{ type: 'text', text: '[result of get_weather (failed): [host] Not run: limit reached.]' }, { type: 'text', text: '好了，别查了' }] },
    ]);
    expect(validateMessagesRequest(request(view))).toBeNull();
    assertValidTranscript(view);
  });

  test('later calls of that turn send the same view (one cache prefix), their own loop intact', () => {
    const later: MessageParam[] = deepFreeze([
      ...LIMITED,
      { role: 'assistant', content: [thinking('Stop, then.'), call('toolu_l2', '上海')] },
      result('toolu_l2', '上海多云'),
    ]);
    const view = withThinkingTurnStart([...later]);
    expect(view.slice(0, 3)).toEqual(withThinkingTurnStart([...LIMITED]));
    expect(view.slice(3)).toEqual(later.slice(3));
  });

  test('nothing changes when the call had its thinking, or the turn opens on text only', () => {
    const withThinking: MessageParam[] = [LIMITED[0]!, { role: 'assistant', content: [thinking('Go.'), call('toolu_l1', '北京')] }, LIMITED[2]!];
    expect(withThinkingTurnStart(withThinking)).toBe(withThinking);
    const plain: MessageParam[] = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: 'again' }];
    expect(withThinkingTurnStart(plain)).toBe(plain);
    const first: MessageParam[] = [{ role: 'user', content: 'hi' }];
    expect(withThinkingTurnStart(first)).toBe(first);
  });
});
