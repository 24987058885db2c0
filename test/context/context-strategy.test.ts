import { SEED_TRANSCRIPT } from '../support/seed-transcript';
import { validateMessagesRequest } from '../../src/offline';
import { withCacheBreakpoints } from '../../src/claude/cache-breakpoints';
import { applyContextStrategy, type ContextStrategy } from '../../src/context/context-strategy';
import { SUMMARY_HEADER, type ContextSummary } from '../../src/context/context-summary';
import { splitForSummary } from '../../src/context/summary-split';
import { assertValidTranscript } from '../../src/context/validate-pairing';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';
import { deepFreeze, randomSource, randomTranscript, TOOLS } from './random-transcripts';

/** Turn starts, computed here independently of the module under test: user messages with something besides tool results. */
function turnStartsOracle(messages: readonly MessageParam[]): number[] {
  return messages.flatMap((m, i) =>
    m.role === 'user' && (typeof m.content === 'string' || m.content.some((b) => b.type !== 'tool_result')) ? [i] : [],
  );
}

function blocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
}

function withoutResults(message: MessageParam): ContentBlockParam[] {
  return blocks(message).filter((b) => b.type !== 'tool_result');
}

/** The names of the tools called, by tool_use id. */
function toolNames(messages: readonly MessageParam[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) for (const b of blocks(m)) if (b.type === 'tool_use') names.set(b.id, b.name);
  return names;
}

/** What every request must satisfy, whatever the strategy: our checker and the fake API's validator. */
function expectSendable(messages: MessageParam[]): void {
  assertValidTranscript(messages);
  expect(validateMessagesRequest({ model: 'claude-sonnet-4-6', max_tokens: 64, messages, tools: TOOLS })).toBeNull();
  expect(messages[0]?.role).toBe('user');
}

/** The seed's §7.2 history at the third request (a mutable, deep-frozen copy). */
const SEED: MessageParam[] = deepFreeze(structuredClone([...SEED_TRANSCRIPT]));

const LONG = 'forecast line\n'.repeat(40);

/** A turn that hit the iteration limit (ends on results), the next turn's text merged into that message. */
const LIMITED: MessageParam[] = deepFreeze([
  { role: 'user', content: 'read both files' },
  {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a' } },
      { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_a', content: LONG },
      { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: LONG }], is_error: true },
      { type: 'text', text: 'and now?' },
    ],
  },
]);

describe('applyContextStrategy on the seed history', () => {
  test('keep_all sends everything, as the seed does', () => {
    const sent = applyContextStrategy(SEED, { kind: 'keep_all' });
    expect(sent).toEqual(SEED);
    expect(sent).not.toBe(SEED);
    expectSendable(sent);
  });

  test('last_turns drops whole older turns: the tool call and its result go together', () => {
    expect(applyContextStrategy(SEED, { kind: 'last_turns', turns: 1 })).toEqual([{ role: 'user', content: '那上海呢' }]);
    const two = applyContextStrategy(SEED, { kind: 'last_turns', turns: 2 });
    expect(two).toEqual(SEED.slice(2));
    expectSendable(two);
    expect(applyContextStrategy(SEED, { kind: 'last_turns', turns: 3 })).toEqual(SEED);
    expect(applyContextStrategy(SEED, { kind: 'last_turns', turns: 99 })).toEqual(SEED);
    // A nonsensical count still keeps the current turn.
    expect(applyContextStrategy(SEED, { kind: 'last_turns', turns: 0 })).toEqual([{ role: 'user', content: '那上海呢' }]);
  });

  test('a user message with only an image starts a turn too (anything but tool results does)', () => {
    const image: ContentBlockParam = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
    const history = deepFreeze([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      { role: 'user', content: [image] },
      { role: 'assistant', content: [{ type: 'text', text: 'a picture' }] },
      { role: 'user', content: 'what is in it?' },
    ] as MessageParam[]);
    expect(applyContextStrategy(history, { kind: 'last_turns', turns: 2 })).toEqual(history.slice(2));
  });

  test('placeholder_tool_results keeps a result shorter than its note (the one "那上海呢" depends on)', () => {
    expect(applyContextStrategy(SEED, { kind: 'placeholder_tool_results', keepRecentTurns: 1 })).toEqual(SEED);
  });

  test('placeholder_tool_results replaces long older results, keeping id, is_error and the call', () => {
    const history = deepFreeze([
      ...SEED.slice(0, 4),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01AbC', content: LONG, is_error: true }] },
      ...SEED.slice(5),
    ] as MessageParam[]);
    const sent = applyContextStrategy(history, { kind: 'placeholder_tool_results', keepRecentTurns: 1 });
    expect(sent[4]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01AbC', content: `[tool result of get_weather omitted: ${LONG.length} chars]`, is_error: true },
      ],
    });
    expect(sent.filter((_, i) => i !== 4)).toEqual(history.filter((_, i) => i !== 4));
    expectSendable(sent);
    // The stored history is untouched.
    expect((history[4]!.content as ContentBlockParam[])[0]).toMatchObject({ content: LONG });
    // With the tool turn among the recent turns, nothing changes.
    expect(applyContextStrategy(history, { kind: 'placeholder_tool_results', keepRecentTurns: 2 })).toEqual(history);
  });

  test('summarize sends everything until a summary exists, then the summary in place of what it covers', () => {
    const strategy: ContextStrategy = { kind: 'summarize', keepRecentTurns: 1 };
    expect(applyContextStrategy(SEED, strategy)).toEqual(SEED);
    const summary: ContextSummary = { text: '用户问了北京天气：get_weather(北京) → 晴，25°C。', coveredMessages: 6 };
    const sent = applyContextStrategy(SEED, strategy, summary);
    expect(sent).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: `${SUMMARY_HEADER}\n用户问了北京天气：get_weather(北京) → 晴，25°C。` },
          { type: 'text', text: '那上海呢' },
        ],
      },
    ]);
    expectSendable(sent);
    // A summary that covers fewer turns than keepRecentTurns would cut: the turns after it are still sent.
    const partial = applyContextStrategy(SEED, strategy, { text: 'greeted', coveredMessages: 2 });
    expect(partial.slice(1)).toEqual(SEED.slice(3));
    expectSendable(partial);
  });

  test('summarize ignores a summary that does not fit the history (never a hole in what is sent)', () => {
    const strategy: ContextStrategy = { kind: 'summarize', keepRecentTurns: 1 };
    for (const coveredMessages of [0, 3, 4, 5, 7, 100, 2.5, -1]) {
      expect(applyContextStrategy(SEED, strategy, { text: 'x', coveredMessages })).toEqual(SEED);
    }
    expect(applyContextStrategy(SEED, strategy, { text: '  ', coveredMessages: 6 })).toEqual(SEED);
  });
});

describe('a turn that ended at the iteration limit (results, then the next turn\'s text in one message)', () => {
  test('last_turns(1) drops the call and its results, keeping what the user said', () => {
    const sent = applyContextStrategy(LIMITED, { kind: 'last_turns', turns: 1 });
    expect(sent).toEqual([{ role: 'user', content: [{ type: 'text', text: 'and now?' }] }]);
    expectSendable(sent);
  });

  test('placeholder_tool_results(1) treats those results as the older turn\'s', () => {
    const sent = applyContextStrategy(LIMITED, { kind: 'placeholder_tool_results', keepRecentTurns: 1 });
    expect(sent[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: `[tool result of read_file omitted: ${LONG.length} chars]` },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: `[tool result of read_file omitted: ${LONG.length} chars]`, is_error: true },
        { type: 'text', text: 'and now?' },
      ],
    });
    expectSendable(sent);
  });

  test('summarize merges the summary into that message without the orphaned results', () => {
    const sent = applyContextStrategy(LIMITED, { kind: 'summarize', keepRecentTurns: 1 }, { text: 'read a and b', coveredMessages: 2 });
    expect(sent).toEqual([
      { role: 'user', content: [{ type: 'text', text: `${SUMMARY_HEADER}\nread a and b` }, { type: 'text', text: 'and now?' }] },
    ]);
    expectSendable(sent);
  });
});

describe('every strategy on random histories (property)', () => {
  // Enough histories to meet every shape many times over; each check is cheap.
  const SEEDS = 150;

  /** Breakpoint positions in a request, as JSON paths. */
  function marks(request: { system?: unknown; tools?: unknown[]; messages: MessageParam[] }): string[] {
    const found: string[] = [];
    if (Array.isArray(request.system)) {
      request.system.forEach((b: { cache_control?: unknown }, i) => b.cache_control && found.push(`system.${i}`));
    }
    (request.tools ?? []).forEach((t, i) => (t as { cache_control?: unknown }).cache_control && found.push(`tools.${i}`));
    request.messages.forEach((m, i) => {
      if (typeof m.content === 'string') return;
      m.content.forEach((b, j) => 'cache_control' in b && b.cache_control && found.push(`messages.${i}.${j}`));
    });
    return found;
  }

  /** Where the moving-end breakpoint must be: the last block that is not thinking. */
  function lastBreakable(message: MessageParam): number {
    const content = blocks(message);
    for (let j = content.length - 1; j >= 0; j--) if (!['thinking', 'redacted_thinking'].includes(content[j]!.type)) return j;
    return -1;
  }

  /** The request as `callClaude` would send it: strategy applied, then breakpoints. Checks placement. */
  function expectCachedRequest(sent: MessageParam[]): void {
    const request = withCacheBreakpoints({ system: 'You are a weather assistant.', tools: TOOLS, messages: sent }, { enabled: true });
    expectSendable(request.messages);
    expect(validateMessagesRequest({ model: 'm', max_tokens: 8, ...request })).toBeNull();
    const last = sent.length - 1;
    const expected = [`messages.${last}.${lastBreakable(request.messages[last]!)}`, 'system.0', `tools.${TOOLS.length - 1}`];
    if (last >= 2 && sent[last - 1]!.role === 'assistant') expected.push(`messages.${last - 2}.${lastBreakable(sent[last - 2]!)}`);
    expect(marks(request).sort()).toEqual(expected.sort());
    expect(marks(request).length).toBeLessThanOrEqual(4);
    // The view itself is not marked: breakpoints live only in the request.
    expect(marks({ messages: sent })).toEqual([]);
  }

  function forEachHistory(check: (stored: MessageParam[], seed: number, rnd: () => number) => void): void {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rnd = randomSource(seed * 7919);
      const stored = deepFreeze(randomTranscript(seed, Math.floor(rnd() * 9)));
      const before = JSON.stringify(stored);
      try {
        check(stored, seed, rnd);
      } catch (err) {
        throw new Error(`seed ${seed}: ${err instanceof Error ? err.message : String(err)}`);
      }
      expect(JSON.stringify(stored)).toBe(before);
    }
  }

  test('the generated histories are themselves valid (else these properties prove nothing)', () => {
    forEachHistory((stored) => expectSendable(stored));
  });

  test('keep_all: the whole history', () => {
    forEachHistory((stored) => {
      const sent = applyContextStrategy(stored, { kind: 'keep_all' });
      expect(sent).toEqual(stored);
      expectCachedRequest(sent);
    });
  });

  test('last_turns(N): exactly the last N turns, verbatim after the first message', () => {
    forEachHistory((stored, _seed, rnd) => {
      const turns = 1 + Math.floor(rnd() * 4);
      const sent = applyContextStrategy(stored, { kind: 'last_turns', turns });
      expectSendable(sent);
      expectCachedRequest(sent);
      const starts = turnStartsOracle(stored);
      if (starts.length <= turns) {
        expect(sent).toEqual(stored);
        return;
      }
      const cut = starts[starts.length - turns]!;
      expect(sent.slice(1)).toEqual(stored.slice(cut + 1));
      expect(blocks(sent[0]!)).toEqual(withoutResults(stored[cut]!));
      expect(turnStartsOracle(sent)).toHaveLength(turns);
    });
  });

  test('placeholder_tool_results(K): same messages; only older results shrink, each to a note naming its tool', () => {
    let replaced = 0;
    forEachHistory((stored, _seed, rnd) => {
      const keep = 1 + Math.floor(rnd() * 3);
      const sent = applyContextStrategy(stored, { kind: 'placeholder_tool_results', keepRecentTurns: keep });
      expectSendable(sent);
      expectCachedRequest(sent);
      expect(sent).toHaveLength(stored.length);
      const starts = turnStartsOracle(stored);
      const cut = starts.length <= keep ? 0 : starts[starts.length - keep]!;
      const names = toolNames(stored);
      stored.forEach((message, i) => {
        const out = sent[i]!;
        if (message.role === 'assistant' || i > cut || cut === 0) {
          expect(out).toEqual(message);
          return;
        }
        expect(withoutResults(out)).toEqual(withoutResults(message));
        const before = blocks(message).filter((b) => b.type === 'tool_result');
        const after = blocks(out).filter((b) => b.type === 'tool_result');
        expect(after).toHaveLength(before.length);
        before.forEach((b, j) => {
          const a = after[j]!;
          if (b.type !== 'tool_result' || a.type !== 'tool_result') throw new Error('not a result');
          expect(a.tool_use_id).toBe(b.tool_use_id);
          expect(a.is_error).toBe(b.is_error);
          const size = JSON.stringify(b.content ?? '').length;
          if (size > 200) {
            expect(a.content).toMatch(new RegExp(`^\\[tool result of ${names.get(b.tool_use_id)!} omitted: \\d+ chars`));
            replaced += 1;
          } else if (a.content !== b.content) {
            expect(a.content).toMatch(/^\[tool result of /);
          }
        });
      });
    });
    // The histories do have older long results: the property above was exercised.
    expect(replaced).toBeGreaterThan(50);
  });

  test('summarize(K): the summary, then everything after what it covers; no summary (or a misfit one): everything', () => {
    let summarised = 0;
    forEachHistory((stored, _seed, rnd) => {
      const keep = 1 + Math.floor(rnd() * 3);
      const strategy: ContextStrategy = { kind: 'summarize', keepRecentTurns: keep };
      expect(applyContextStrategy(stored, strategy)).toEqual(stored);
      const starts = turnStartsOracle(stored).filter((s) => s > 0);
      const { coveredMessages } = splitForSummary(stored, keep);
      // The summary the activity would write now, and two summaries written at earlier turns.
      const candidates = [coveredMessages, starts[Math.floor(rnd() * starts.length)] ?? 0, starts[0] ?? 0].filter((c) => c > 0);
      for (const covered of candidates) {
        const sent = applyContextStrategy(stored, strategy, { text: `summary of ${covered}`, coveredMessages: covered });
        expectSendable(sent);
        expectCachedRequest(sent);
        expect(sent.slice(1)).toEqual(stored.slice(covered + 1));
        expect(blocks(sent[0]!)).toEqual([{ type: 'text', text: `${SUMMARY_HEADER}\nsummary of ${covered}` }, ...withoutResults(stored[covered]!)]);
        summarised += 1;
      }
      // An index that is not a turn start is not a usable summary.
      const misfit = stored.findIndex((m, i) => i > 0 && !starts.includes(i));
      if (misfit > 0) expect(applyContextStrategy(stored, strategy, { text: 'x', coveredMessages: misfit })).toEqual(stored);
    });
    expect(summarised).toBeGreaterThan(SEEDS);
  });
});
