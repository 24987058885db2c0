/**
 * The fakes' server-side context management (src/offline/context-editing-emulation.ts), read back
 * through the real SDK's beta client: compaction past the trigger (a signed block first, its usage
 * as an iteration), tool uses cleared past theirs, and the API's 400s, with the `error_code` the SDK
 * turns into its own error classes: a misplaced, doubled or edited compaction block, a missing beta
 * header, a trigger under the API's minimum.
 */
import { CompactionBlockAmbiguousError, CompactionBlockMisplacedError, CompactionContentMismatchError } from '@anthropic-ai/sdk/resources/messages';
import { contextManagementProblem, signCompaction, withContextManagement, type MessageAnswer } from '../../src/offline';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { caught, MODEL, sdkClientFor, weatherTool } from '../support/fake-api-client';

const COMPACT = { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } }] };
const BETA = { 'anthropic-beta': 'compact-2026-01-12' };
const LONG = `记录：${'晴 微风。'.repeat(20_000)}`;
const answer = (text: string): MessageAnswer => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });
const compaction = (content: string, signature = signCompaction(content)): Record<string, unknown> => ({ type: 'compaction', content, encrypted_content: null, signature });

describe('the fake refuses what the real API refuses', () => {
  test.each([
    ['no beta header', { context_management: COMPACT, messages: [{ role: 'user', content: 'hi' }] }, {}, /needs the beta header `anthropic-beta: compact-2026-01-12`/, undefined],
    ['a trigger under 50,000', { context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 1000 } }] }, messages: [] }, BETA, /trigger.value: Input should be greater than or equal to 50000/, undefined],
    ['an unknown edit', { context_management: { edits: [{ type: 'compact_2099' }] }, messages: [] }, BETA, /Input should be 'clear_tool_uses_20250919'/, undefined],
    [
      'a compaction block not first',
      { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [compaction('s')] }] },
      BETA,
      /must be the first block of the conversation/,
      'compaction_block_misplaced',
    ],
    [
      'an edited summary',
      { messages: [{ role: 'assistant', content: [{ ...compaction('s'), content: 'edited' }] }, { role: 'user', content: 'hi' }] },
      BETA,
      /differs from the text its signature recorded/,
      'compaction_content_mismatch',
    ],
    ['clearing without its beta', { context_management: { edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 1 } }] }, messages: [] }, BETA, /context-management-2025-06-27/, undefined],
  ] as const)('%s', (_name, body, headers, message, errorCode) => {
    const problem = contextManagementProblem(body, headers);
    expect(problem?.message).toMatch(message);
    expect(problem?.errorCode).toBe(errorCode);
  });

  test('a request without context management is none of its business', () => {
    expect(contextManagementProblem({ messages: [{ role: 'user', content: 'hi' }] }, {})).toBeNull();
  });
});

describe('emulation', () => {
  test('under the trigger: the answer as it was', () => {
    const plain = answer('hi');
    expect(withContextManagement(plain, { context_management: COMPACT, messages: [{ role: 'user', content: 'short' }] })).toBe(plain);
  });

  test('past the trigger: a signed compaction block first, the compaction\'s usage as an iteration, the top-level usage after it', () => {
    const out = withContextManagement(answer('好的'), { context_management: COMPACT, messages: [{ role: 'user', content: LONG }] });
    const [block, text] = out.content as unknown as Array<Record<string, unknown>>;
    expect(block).toMatchObject({ type: 'compaction', encrypted_content: null });
    expect(block?.signature).toBe(signCompaction(String(block?.content)));
    expect(text).toEqual({ type: 'text', text: '好的' });
    const usage = out.usage as { input_tokens: number; iterations: Array<{ type: string; input_tokens: number }> };
    expect(usage.iterations.map((i) => i.type)).toEqual(['compaction', 'message']);
    expect(usage.iterations[0]!.input_tokens).toBeGreaterThan(50_000);
    expect(usage.input_tokens).toBeLessThan(1_000);
  });

  test('clearing tool uses past the trigger: all but the last N results, reported as applied', () => {
    const messages = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(4000) }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'get_weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'y'.repeat(4000) }] },
    ];
    const edits = [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 1000 }, keep: { type: 'tool_uses', value: 1 } }];
    const out = withContextManagement(answer('ok'), { context_management: { edits }, messages });
    expect(out.contextManagement?.applied_edits).toEqual([{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 1, cleared_input_tokens: expect.any(Number) }]);
  });
});

describe('through the SDK\'s beta client', () => {
  let fake: FakeMessagesApi;
  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
  });
  afterAll(async () => fake.close());

  test('streamed and not: the compaction block comes back whole, the 400s as the SDK\'s own classes', async () => {
    const claude = sdkClientFor(fake.url);
    const request = { model: MODEL, max_tokens: 1024, tools: [weatherTool], messages: [{ role: 'user' as const, content: LONG }], context_management: COMPACT as never, betas: ['compact-2026-01-12'] };
    fake.enqueue({ kind: 'message', content: [{ type: 'text', text: '好的' }], stop_reason: 'end_turn' }, { kind: 'message', content: [{ type: 'text', text: '好的' }], stop_reason: 'end_turn' });
    const whole = await claude.beta.messages.create(request);
    const streamed = await claude.beta.messages.stream(request).finalMessage();
    for (const message of [whole, streamed]) {
      const block = message.content[0];
      expect(block?.type).toBe('compaction');
      if (block?.type !== 'compaction') continue;
      expect(block.signature).toBe(signCompaction(block.content ?? ''));
      expect(message.usage.iterations?.[0]?.type).toBe('compaction');
    }
    const summary = (whole.content[0] as { content: string }).content;
    const misplaced = await caught(claude.beta.messages.create({ ...request, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [compaction(summary) as never] }] }));
    expect(misplaced).toBeInstanceOf(CompactionBlockMisplacedError);
    const both = [{ role: 'assistant' as const, content: [compaction(summary) as never] }, { role: 'user' as const, content: 'hi' }, { role: 'assistant' as const, content: [compaction('later') as never] }, { role: 'user' as const, content: 'hi' }];
    expect(await caught(claude.beta.messages.create({ ...request, messages: both }))).toBeInstanceOf(CompactionBlockAmbiguousError);
    const edited = [{ role: 'assistant' as const, content: [{ ...compaction(summary), content: 'edited' } as never] }, { role: 'user' as const, content: 'hi' }];
    expect(await caught(claude.beta.messages.create({ ...request, messages: edited }))).toBeInstanceOf(CompactionContentMismatchError);
  });
});
