import { SEED_TRANSCRIPT } from '../support/seed-transcript';
import { validateMessagesRequest } from '../../src/offline';
import { assertValidTranscript, transcriptProblem } from '../../src/context/validate-pairing';
import type { MessageParam } from '../../src/conversation/types';
import { randomTranscript, TOOLS } from './random-transcripts';

/** The seed's §7.2 history at the third request: a text turn, a tool turn, then "那上海呢". */
const SEED: MessageParam[] = [...SEED_TRANSCRIPT];

/** SEED with message i replaced. */
function seedWith(i: number, message: MessageParam): MessageParam[] {
  return SEED.map((m, j) => (j === i ? message : m));
}

describe('assertValidTranscript', () => {
  test('accepts the seed history and the multi-tool shapes the workflow stores', () => {
    expect(transcriptProblem(SEED)).toBeNull();
    expect(() => assertValidTranscript(SEED)).not.toThrow();
    for (let seed = 1; seed <= 50; seed++) expect(transcriptProblem(randomTranscript(seed, 6))).toBeNull();
  });

  test.each<[string, MessageParam[], RegExp]>([
    ['no messages', [], /at least one/],
    ['an assistant first', SEED.slice(1), /messages\[0\] must be a user message/],
    ['two user messages in a row', [SEED[0]!, SEED[2]!], /both user messages: roles must alternate/],
    ['two assistant messages in a row', [SEED[0]!, SEED[1]!, SEED[1]!], /both assistant messages/],
    ['a system-role message', [{ role: 'system', content: 'be brief' }, ...SEED], /role system/],
    ['a tool_use without its result', SEED.slice(0, 4), /tool_use toolu_01AbC has no tool_result in the next user message/],
    [
      'a tool_use answered by a plain user message',
      seedWith(4, { role: 'user', content: 'never mind' }),
      /tool_use toolu_01AbC has no tool_result/,
    ],
    [
      'a tool_result for another id',
      seedWith(4, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_other', content: 'x' }] }),
      /tool_use toolu_01AbC has no tool_result|tool_result for toolu_other has no tool_use/,
    ],
    [
      'a tool_result whose call was cut away',
      [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01AbC', content: 'x' }, { type: 'text', text: 'hi' }] }],
      /tool_result for toolu_01AbC has no tool_use in the previous assistant message/,
    ],
    [
      'a duplicated tool_result',
      seedWith(4, {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01AbC', content: 'a' },
          { type: 'tool_result', tool_use_id: 'toolu_01AbC', content: 'b' },
        ],
      }),
      /more than one tool_result for toolu_01AbC/,
    ],
    [
      'a tool_result after text',
      seedWith(4, { role: 'user', content: [{ type: 'text', text: 'here:' }, { type: 'tool_result', tool_use_id: 'toolu_01AbC', content: 'a' }] }),
      /results must come first/,
    ],
    ['an empty text block', seedWith(6, { role: 'user', content: [{ type: 'text', text: '  ' }] }), /empty text block/],
    ['empty string content', seedWith(6, { role: 'user', content: '' }), /empty content/],
    ['no content blocks', seedWith(6, { role: 'user', content: [] }), /no content blocks/],
    [
      'a reused tool_use id',
      [...SEED.slice(0, 6), SEED[2]!, SEED[3]!, SEED[4]!],
      /toolu_01AbC is used more than once/,
    ],
  ])('rejects %s', (_name, messages, expected) => {
    expect(() => assertValidTranscript(messages)).toThrow(expected);
    // Each of these is also something the real API answers with a 400 (or, for consecutive
    // same-role messages, something this host never sends): the fake's validator agrees where it checks.
    if (messages.length > 0 && !/both .* messages|role system/.test(String(expected))) {
      expect(validateMessagesRequest({ model: 'm', max_tokens: 8, messages, tools: TOOLS })).not.toBeNull();
    }
  });
});
