/**
 * The two strategies the API runs on its side (issue 29): `compact[:TRIGGER]` and
 * `clear_tool_uses:N[:TRIGGER]` as text, their request fields and beta headers (only with them),
 * their escalations (each step keeps no more, down to a fixed point), and the views: a compacted
 * conversation sent from its latest compaction block; compaction blocks left out under any other
 * strategy, the kept history sent in their place.
 */
import { compactionCount, fromLatestCompaction, latestCompaction, withoutCompactionBlocks } from '../../src/context/compaction';
import { serverContextFields } from '../../src/context/context-editing';
import { applyContextStrategy, type ContextStrategy } from '../../src/context/context-strategy';
import { canEscalate, escalate } from '../../src/context/escalate-strategy';
import { contextStrategyProblem, formatContextStrategy, parseContextStrategy } from '../../src/context/strategy-spec';
import { transcriptProblem } from '../../src/context/validate-pairing';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';

const compaction = (content: string | null): ContentBlockParam => ({ type: 'compaction', content, encrypted_content: null, signature: `sig:${String(content)}` }) as unknown as ContentBlockParam;
const call = (id: string): ContentBlockParam => ({ type: 'tool_use', id, name: 'get_weather', input: { city: '北京' } });
const result = (id: string): MessageParam => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: '晴' }] });

/** Two compactions: the second one (in the third turn's first reply) is the one that counts; one failed (null). */
const STORED: MessageParam[] = [
  { role: 'user', content: '第一个问题' },
  { role: 'assistant', content: [call('toolu_1')] },
  result('toolu_1'),
  { role: 'assistant', content: [compaction('first summary'), { type: 'text', text: '北京晴。' }] },
  { role: 'user', content: '第二个问题' },
  { role: 'assistant', content: [compaction('second summary'), call('toolu_2')] },
  result('toolu_2'),
  { role: 'assistant', content: [compaction(null), { type: 'text', text: '还是晴。' }] },
  { role: 'user', content: '第三个问题' },
];

describe('compact and clear_tool_uses as text', () => {
  test.each([
    ['compact', { kind: 'compact' }],
    ['compact:60000', { kind: 'compact', triggerTokens: 60_000 }],
    ['clear_tool_uses:3', { kind: 'clear_tool_uses', keepToolUses: 3 }],
    ['clear_tool_uses:3:40000', { kind: 'clear_tool_uses', keepToolUses: 3, triggerTokens: 40_000 }],
  ] as const)('%s', (spec, strategy) => {
    expect(parseContextStrategy(spec)).toEqual(strategy);
    expect(formatContextStrategy(strategy)).toBe(spec);
    expect(contextStrategyProblem(strategy)).toBeUndefined();
  });

  test.each(['compact:49999', 'compact:x', 'compact:60000:1', 'clear_tool_uses', 'clear_tool_uses:0', 'clear_tool_uses:2:0', 'clear_tool_uses:1:2:3'])('refused: %s', (spec) => {
    expect(() => parseContextStrategy(spec)).toThrow(/invalid context strategy .*compact\[:TRIGGER\] \(TRIGGER ≥ 50000 input tokens\) or clear_tool_uses:N\[:TRIGGER\]/);
  });

  test('an update\'s malformed strategy is named', () => {
    expect(contextStrategyProblem({ kind: 'compact', triggerTokens: 10 })).toMatch(/invalid context strategy "compact:10"/);
  });
});

describe('request fields', () => {
  test('compact: the compact_20260112 edit and its beta; the trigger only when set', () => {
    expect(serverContextFields({ kind: 'compact' })).toEqual({ betas: ['compact-2026-01-12'], context_management: { edits: [{ type: 'compact_20260112' }] } });
    expect(serverContextFields({ kind: 'compact', triggerTokens: 80_000 })?.context_management.edits).toEqual([
      { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 80_000 } },
    ]);
  });

  test('clear_tool_uses: the clear_tool_uses_20250919 edit keeping N tool uses, and its beta', () => {
    expect(serverContextFields({ kind: 'clear_tool_uses', keepToolUses: 2, triggerTokens: 30_000 })).toEqual({
      betas: ['context-management-2025-06-27'],
      context_management: { edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 30_000 }, keep: { type: 'tool_uses', value: 2 } }] },
    });
  });

  test.each<ContextStrategy>([{ kind: 'keep_all' }, { kind: 'last_turns', turns: 2 }, { kind: 'placeholder_tool_results', keepRecentTurns: 1 }, { kind: 'summarize', keepRecentTurns: 2 }])(
    'none for %j: no beta header, no context_management',
    (strategy) => expect(serverContextFields(strategy)).toBeUndefined(),
  );
});

describe('escalation', () => {
  test('compact halves its trigger down to the API\'s minimum, then stays', () => {
    const steps: ContextStrategy[] = [{ kind: 'compact' }];
    while (canEscalate(steps.at(-1)!)) steps.push(escalate(steps.at(-1)!));
    expect(steps.map(formatContextStrategy)).toEqual(['compact', 'compact:75000', 'compact:50000']);
  });

  test('clear_tool_uses keeps fewer tool uses, then clears sooner, down to a fixed point', () => {
    const steps: ContextStrategy[] = [{ kind: 'clear_tool_uses', keepToolUses: 5 }];
    while (canEscalate(steps.at(-1)!)) steps.push(escalate(steps.at(-1)!));
    expect(steps.map(formatContextStrategy)).toEqual([
      'clear_tool_uses:5',
      'clear_tool_uses:2',
      'clear_tool_uses:1',
      'clear_tool_uses:1:50000',
      'clear_tool_uses:1:25000',
      'clear_tool_uses:1:12500',
      'clear_tool_uses:1:10000',
    ]);
  });

  test('a trigger set below the floor is never raised', () => {
    expect(escalate({ kind: 'clear_tool_uses', keepToolUses: 1, triggerTokens: 5_000 })).toEqual({ kind: 'clear_tool_uses', keepToolUses: 1, triggerTokens: 5_000 });
  });
});

describe('views', () => {
  test('compact sends from the latest compaction block with a summary; later failed ones are left out', () => {
    expect(latestCompaction(STORED)).toEqual({ message: 5, block: 0 });
    expect(compactionCount(STORED)).toBe(2);
    const sent = applyContextStrategy(STORED, { kind: 'compact' });
    expect(sent).toEqual([STORED[5], STORED[6], { role: 'assistant', content: [{ type: 'text', text: '还是晴。' }] }, STORED[8]]);
    expect(transcriptProblem(sent)).toBeNull();
  });

  test('a compaction block after other blocks: the message is sent from it', () => {
    const stored: MessageParam[] = [{ role: 'user', content: '问' }, { role: 'assistant', content: [{ type: 'text', text: '先说' }, compaction('s'), { type: 'text', text: '后说' }] }, { role: 'user', content: '再问' }];
    expect(fromLatestCompaction(stored)[0]).toEqual({ role: 'assistant', content: [compaction('s'), { type: 'text', text: '后说' }] });
  });

  test('before any compaction, compact sends everything', () => {
    expect(applyContextStrategy(STORED.slice(0, 3), { kind: 'compact' })).toEqual(STORED.slice(0, 3));
  });

  test('every other strategy sends the kept history without compaction blocks; a message that held only one says so', () => {
    const onlyBlock: MessageParam[] = [{ role: 'user', content: '问' }, { role: 'assistant', content: [compaction('s')] }, { role: 'user', content: '再问' }];
    expect(withoutCompactionBlocks(onlyBlock)[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[the conversation so far was compacted here]' }] });
    for (const strategy of [{ kind: 'keep_all' }, { kind: 'clear_tool_uses', keepToolUses: 1 }, { kind: 'last_turns', turns: 2 }] as ContextStrategy[]) {
      const sent = applyContextStrategy(STORED, strategy);
      expect(JSON.stringify(sent)).not.toContain('"compaction"');
      expect(transcriptProblem(sent)).toBeNull();
    }
  });

  test('only a compaction block may open a request on the assistant\'s side', () => {
    expect(transcriptProblem([{ role: 'assistant', content: [{ type: 'text', text: '你好' }] }])).toBe('messages[0] must be a user message');
    expect(transcriptProblem([{ role: 'assistant', content: [compaction('s'), { type: 'text', text: '你好' }] }, { role: 'user', content: '嗯' }])).toBeNull();
  });
});
