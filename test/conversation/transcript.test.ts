import { validateMessagesRequest } from '../../src/offline';
import {
  textOf,
  toolResultsMessage,
  toolUsesOf,
  withoutToolUses,
  withUserText,
  type ToolResultBlock,
} from '../../src/conversation/transcript';
import type { ContentBlockParam, MessageParam } from '../../src/conversation/types';

const TOOLS = [{ name: 'get_weather', input_schema: { type: 'object' as const } }];

/** What the real API would say about these messages (the fake's validator mirrors it); null when valid. */
function apiVerdict(messages: MessageParam[]): string | null {
  return validateMessagesRequest({ model: 'claude-sonnet-4-6', max_tokens: 64, messages, tools: TOOLS });
}

const toolUse = (id: string, city: string): ContentBlockParam => ({ type: 'tool_use', id, name: 'get_weather', input: { city } });
const result = (id: string, content: string, isError = false): ToolResultBlock => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  ...(isError ? { is_error: true } : {}),
});

describe('withUserText', () => {
  test('starts a conversation with a plain string message, as in the seed', () => {
    expect(withUserText([], '北京今天天气怎么样')).toEqual([{ role: 'user', content: '北京今天天气怎么样' }]);
  });

  test('after an assistant message, appends a new user message', () => {
    const before: MessageParam[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    ];
    expect(withUserText(before, 'again')).toEqual([...before, { role: 'user', content: 'again' }]);
  });

  test('after a user message (a failed turn), joins it instead of breaking the alternation', () => {
    const after = withUserText([{ role: 'user', content: 'first' }], 'second');
    expect(after).toEqual([{ role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }] }]);
    expect(apiVerdict(after)).toBeNull();
  });

  test('after tool results (a turn stopped at the loop limit), the text goes after the results', () => {
    const before: MessageParam[] = [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: [toolUse('toolu_1', '北京')] },
      toolResultsMessage([result('toolu_1', 'not run', true)]),
    ];
    const after = withUserText(before, 'never mind');
    expect(after).toHaveLength(3);
    expect(after[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'not run', is_error: true },
        { type: 'text', text: 'never mind' },
      ],
    });
    expect(apiVerdict(after)).toBeNull();
  });

  test('does not change the array it was given', () => {
    const before: MessageParam[] = [{ role: 'user', content: 'first' }];
    const copy = structuredClone(before);
    withUserText(before, 'second');
    expect(before).toEqual(copy);
  });
});

describe('toolUsesOf', () => {
  test('returns the tool_use blocks in order, skipping everything else', () => {
    const content: ContentBlockParam[] = [{ type: 'text', text: 'two cities' }, toolUse('toolu_a', '北京'), toolUse('toolu_b', '上海')];
    expect(toolUsesOf(content).map((block) => block.id)).toEqual(['toolu_a', 'toolu_b']);
    expect(toolUsesOf([{ type: 'text', text: 'none' }])).toEqual([]);
  });
});

describe('withoutToolUses', () => {
  test('content without tool_use comes back unchanged (as a copy)', () => {
    const content: ContentBlockParam[] = [{ type: 'text', text: 'done' }];
    const kept = withoutToolUses(content, 'why');
    expect(kept).toEqual(content);
    expect(kept).not.toBe(content);
  });

  test('drops tool_use blocks and keeps the rest', () => {
    expect(withoutToolUses([{ type: 'text', text: 'Let me check' }, toolUse('toolu_x', '北京')], 'cut')).toEqual([
      { type: 'text', text: 'Let me check' },
    ]);
  });

  test('never leaves an assistant message empty: a note says what was dropped, or that the reply was empty', () => {
    expect(withoutToolUses([toolUse('toolu_x', '北京'), toolUse('toolu_y', '上海')], 'the reply was cut at max_tokens')).toEqual([
      { type: 'text', text: '[host: 2 unexecuted tool call(s) removed: the reply was cut at max_tokens]' },
    ]);
    expect(withoutToolUses([], 'stop_reason end_turn')).toEqual([{ type: 'text', text: '[host: empty reply: stop_reason end_turn]' }]);
  });

  test('the resulting history is valid for the API: no tool_use is left unanswered', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: withoutToolUses([toolUse('toolu_cut', '北京')], 'cut') },
      { role: 'user', content: 'go on' },
    ];
    expect(apiVerdict(messages)).toBeNull();
    // What it guards against: the same history with the tool_use kept.
    expect(apiVerdict([messages[0]!, { role: 'assistant', content: [toolUse('toolu_cut', '北京')] }, messages[2]!])).toContain(
      'tool_use ids were found without tool_result blocks',
    );
  });
});

describe('toolResultsMessage', () => {
  test('one user message with every result, in the order given (S12, S17)', () => {
    const results = [result('toolu_a', '北京今天晴，25°C'), result('toolu_b', '找不到城市：北进', true)];
    const message = toolResultsMessage(results);
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: '北京今天晴，25°C' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: '找不到城市：北进', is_error: true },
      ],
    });
    // Copies: changing the message later cannot change the results it was built from, or the reverse.
    expect((message.content as unknown[])[0]).not.toBe(results[0]);
    const history: MessageParam[] = [
      { role: 'user', content: 'two cities' },
      { role: 'assistant', content: [toolUse('toolu_a', '北京'), toolUse('toolu_b', '北进')] },
      message,
    ];
    expect(apiVerdict(history)).toBeNull();
  });
});

describe('textOf', () => {
  test('joins the text blocks and ignores the others', () => {
    expect(textOf([{ type: 'text', text: '北京' }, toolUse('toolu_a', '北京'), { type: 'text', text: '今天晴' }])).toBe('北京今天晴');
    expect(textOf([toolUse('toolu_a', '北京')])).toBe('');
    expect(textOf([])).toBe('');
  });
});
