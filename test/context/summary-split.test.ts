import { SEED_TRANSCRIPT } from '../support/seed-transcript';
import { applyContextStrategy } from '../../src/context/context-strategy';
import type { ContextSummary } from '../../src/context/context-summary';
import { splitForSummary, summaryDue } from '../../src/context/summary-split';
import { summaryPrompt } from '../../src/context/summary-prompt';
import { assertValidTranscript } from '../../src/context/validate-pairing';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';
import { deepFreeze, randomSource, randomTranscript } from './random-transcripts';

const SEED: MessageParam[] = deepFreeze(structuredClone([...SEED_TRANSCRIPT]));

function turnStartsOracle(messages: readonly MessageParam[]): number[] {
  return messages.flatMap((m, i) =>
    m.role === 'user' && (typeof m.content === 'string' || m.content.some((b) => b.type !== 'tool_result')) ? [i] : [],
  );
}

function blocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
}

describe('splitForSummary', () => {
  test('the seed: the first two turns are older, the current one ("那上海呢") stays', () => {
    expect(splitForSummary(SEED, 1)).toEqual({ older: SEED.slice(0, 6), recent: [SEED[6]], coveredMessages: 6 });
    expect(splitForSummary(SEED, 2)).toEqual({ older: SEED.slice(0, 2), recent: SEED.slice(2), coveredMessages: 2 });
    expect(splitForSummary(SEED, 3)).toEqual({ older: [], recent: SEED, coveredMessages: 0 });
  });

  test('results that open the first recent turn move to older, with their call', () => {
    const history = deepFreeze([
      { role: 'user', content: 'read a' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'read_file', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'A' }, { type: 'text', text: 'and b?' }] },
    ] as MessageParam[]);
    expect(splitForSummary(history, 1)).toEqual({
      older: [history[0], history[1], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'A' }] }],
      recent: [{ role: 'user', content: [{ type: 'text', text: 'and b?' }] }],
      coveredMessages: 2,
    });
  });

  test('property: both halves are valid transcripts, and together they are the stored history', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const rnd = randomSource(seed);
      const stored = deepFreeze(randomTranscript(seed, Math.floor(rnd() * 9)));
      const keep = 1 + Math.floor(rnd() * 3);
      const { older, recent, coveredMessages } = splitForSummary(stored, keep);
      assertValidTranscript(recent);
      const starts = turnStartsOracle(stored);
      if (starts.length <= keep) {
        expect({ older, recent, coveredMessages }).toEqual({ older: [], recent: stored, coveredMessages: 0 });
        continue;
      }
      expect(coveredMessages).toBe(starts[starts.length - keep]);
      assertValidTranscript(older);
      expect(turnStartsOracle(recent)).toHaveLength(keep);
      // Put the moved results back in front of the first recent message: the stored history again.
      const moved = older[older.length - 1]!;
      const movedResults = coveredMessages > 0 && blocks(stored[coveredMessages]!).some((b) => b.type === 'tool_result');
      const body = movedResults ? older.slice(0, -1) : older;
      const first: MessageParam = { role: 'user', content: [...(movedResults ? blocks(moved) : []), ...blocks(recent[0]!)] };
      expect([...body, first, ...recent.slice(1)].map((m) => blocks(m))).toEqual(stored.map((m) => blocks(m)));
    }
  });

  test('property: with a previous summary, older holds only what it does not cover, and the two summaries cover everything once', () => {
    let incremental = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const rnd = randomSource(seed * 31);
      const stored = deepFreeze(randomTranscript(seed, 3 + Math.floor(rnd() * 7)));
      const keep = 1 + Math.floor(rnd() * 2);
      // The previous summary was written when the recent window was wider (earlier in the conversation).
      const first = splitForSummary(stored, keep + 2);
      const previous: ContextSummary | undefined =
        first.coveredMessages > 0 ? { text: 'earlier', coveredMessages: first.coveredMessages } : undefined;
      const second = splitForSummary(stored, keep, previous);
      if (second.coveredMessages === 0) continue;
      if (second.older.length > 0) assertValidTranscript(second.older);
      const all = splitForSummary(stored, keep);
      // first.older (minus its moved results) + second.older (the rest) = all.older, block for block.
      const flat = (ms: MessageParam[]): ContentBlockParam[] => ms.flatMap(blocks);
      expect([...flat(first.older), ...flat(second.older)]).toEqual(flat(all.older));
      expect(second.recent).toEqual(all.recent);
      // After the new summary, the view sent is valid and nothing more is due.
      const summary = { text: 'both', coveredMessages: second.coveredMessages };
      assertValidTranscript(applyContextStrategy(stored, { kind: 'summarize', keepRecentTurns: keep }, summary));
      expect(summaryDue(stored, keep, summary, { force: true })).toBe(false);
      if (previous !== undefined && second.older.length > 0) incremental += 1;
    }
    expect(incremental).toBeGreaterThan(50);
  });
});

describe('summaryDue', () => {
  /** `turns` answered text turns, then the current one. */
  const history = (turns: number): MessageParam[] =>
    deepFreeze([
      ...Array.from({ length: turns }, (_, i): MessageParam[] => [
        { role: 'user', content: `q${i}` },
        { role: 'assistant', content: [{ type: 'text', text: `a${i}` }] },
      ]).flat(),
      { role: 'user', content: `q${turns}` },
    ]);

  test('batches: due once keepRecentTurns whole turns have aged out and are not yet covered', () => {
    const keep = 2;
    expect(summaryDue(history(0), keep, undefined)).toBe(false);
    expect(summaryDue(history(1), keep, undefined)).toBe(false); // 2 turns: none aged out
    expect(summaryDue(history(2), keep, undefined)).toBe(false); // 1 aged out
    expect(summaryDue(history(3), keep, undefined)).toBe(true); // 2 aged out
    expect(summaryDue(history(2), keep, undefined, { force: true })).toBe(true);
    expect(summaryDue(history(1), keep, undefined, { force: true })).toBe(false);
  });

  test('counts only turns the previous summary does not cover', () => {
    const stored = history(8);
    const starts = turnStartsOracle(stored);
    expect(starts).toHaveLength(9);
    // Covering the first 5 turns: with keep 2, turns 6 and 7 have aged out since.
    const previous: ContextSummary = { text: 's', coveredMessages: starts[5]! };
    expect(summaryDue(stored, 2, previous)).toBe(true);
    expect(summaryDue(stored, 3, previous)).toBe(false);
    expect(summaryDue(stored, 3, previous, { force: true })).toBe(true);
    // A summary that covers every aged turn: nothing to do, even forced.
    expect(summaryDue(stored, 2, { text: 's', coveredMessages: starts[7]! }, { force: true })).toBe(false);
    // A misfit previous summary is ignored (everything older is uncovered).
    expect(summaryDue(stored, 2, { text: 's', coveredMessages: starts[5]! + 1 })).toBe(true);
  });
});

describe('summaryPrompt', () => {
  test('renders calls, arguments and results as text, and asks to keep what follow-ups refer to', () => {
    const prompt = summaryPrompt(SEED.slice(0, 6));
    expect(prompt).toContain('User: 北京今天天气怎么样');
    expect(prompt).toContain('Assistant called tool get_weather with {"city":"北京"}');
    expect(prompt).toContain('Result of get_weather: 北京今天晴，25°C');
    expect(prompt).toContain('Assistant: 北京今天晴，25°C，适合出门。');
    expect(prompt).toContain('那上海呢');
    expect(prompt).not.toContain('<previous_summary>');
  });

  test('includes the previous summary, marks failed calls, cuts huge results and skips thinking', () => {
    const older: MessageParam[] = [
      { role: 'user', content: 'read it' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'SECRET REASONING', signature: 's' },
          { type: 'tool_use', id: 'toolu_x', name: 'read_file', input: { path: '/x' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_x', content: [{ type: 'text', text: 'y'.repeat(10_000) }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }], is_error: true },
        ],
      },
    ];
    const prompt = summaryPrompt(older, '用户在北京。');
    expect(prompt).toMatch(/<previous_summary>\n用户在北京。\n<\/previous_summary>/);
    expect(prompt).toContain('Result of read_file (the call failed): ');
    expect(prompt).toContain('more chars]');
    expect(prompt.length).toBeLessThan(6000);
    expect(prompt).not.toContain('SECRET REASONING');
  });

  test('server tools and compactions in words: the search, its results\' titles and URLs, code output, a summary', () => {
    const older = [
      { role: 'user', content: '搜一下 durable execution' },
      {
        role: 'assistant',
        content: [
          { type: 'compaction', content: 'Earlier the user asked about Beijing.', encrypted_content: null },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'durable execution' } },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', title: 'Durable Execution', url: 'https://temporal.io/x', encrypted_content: 'E' }] },
          { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'code_execution_result', stdout: '42', stderr: '', return_code: 0, content: [] } },
          { type: 'text', text: '找到了。' },
        ],
      },
    ] as unknown as MessageParam[];
    const prompt = summaryPrompt(older);
    expect(prompt).toContain('Summary of what came before: Earlier the user asked about Beijing.');
    expect(prompt).toContain('Assistant used the server tool web_search with {"query":"durable execution"}');
    expect(prompt).toContain('Result of web_search: Durable Execution https://temporal.io/x');
    expect(prompt).toContain('Result of code_execution: 42');
    expect(prompt).not.toContain('encrypted');
  });
});
