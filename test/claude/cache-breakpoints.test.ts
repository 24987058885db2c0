import { MAX_CACHE_BREAKPOINTS, withCacheBreakpoints, type CacheableRequest } from '../../src/claude/cache-breakpoints';
import { validateMessagesRequest } from '../../src/offline';
import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlockParam, MessageParam, Tool } from '../../src/conversation/types';
import { deepFreeze } from '../context/random-transcripts';

const EPHEMERAL = { type: 'ephemeral' };

const TOOLS: Tool[] = [
  { name: 'get_weather', description: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'add', description: 'adds', input_schema: { type: 'object' } },
];

/** A tool round in progress: question, call, result (the request after the tool ran). */
const ROUND: MessageParam[] = [
  { role: 'user', content: '北京今天天气怎么样' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: '我需要查一下。' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: '北京' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '北京今天晴，25°C' }] },
];

/** Every breakpoint in a request, as a path. */
function marks(request: CacheableRequest): string[] {
  const found: string[] = [];
  const scan = (path: string, value: unknown): void => {
    if (Array.isArray(value)) value.forEach((v, i) => scan(`${path}.${i}`, v));
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        if (k === 'cache_control') found.push(path.slice(1));
        else scan(`${path}.${k}`, v);
      }
    }
  };
  scan('', request);
  return found.sort();
}

function sendable(request: CacheableRequest): string | null {
  return validateMessagesRequest({ model: 'claude-sonnet-4-6', max_tokens: 64, ...request });
}

describe('withCacheBreakpoints', () => {
  test('marks the moving end, the system prompt, the last tool and the previous end', () => {
    const request = deepFreeze({ system: 'Be brief.', tools: TOOLS, messages: ROUND });
    const out = withCacheBreakpoints(request, { enabled: true });
    expect(marks(out)).toEqual(['messages.0.content.0', 'messages.2.content.0', 'system.0', 'tools.1']);
    expect(out.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: EPHEMERAL }]);
    expect(out.tools?.[1]).toEqual({ ...TOOLS[1], cache_control: EPHEMERAL });
    expect(out.tools?.[0]).toBe(TOOLS[0]);
    expect(out.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '北京今天晴，25°C', cache_control: EPHEMERAL }],
    });
    // The previous request ended with the question; its string content became a marked block.
    expect(out.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: '北京今天天气怎么样', cache_control: EPHEMERAL }] });
    // Unchanged messages are shared, the input is not touched (it is frozen, and has no marks).
    expect(out.messages[1]).toBe(ROUND[1]);
    expect(marks(request)).toEqual([]);
    expect(sendable(out)).toBeNull();
  });

  test('the first request of a conversation has no previous end', () => {
    const out = withCacheBreakpoints({ system: 'Be brief.', tools: TOOLS, messages: ROUND.slice(0, 1) }, { enabled: true });
    expect(marks(out)).toEqual(['messages.0.content.0', 'system.0', 'tools.1']);
  });

  test('a later round marks where the previous request ended, wherever that is', () => {
    const messages: MessageParam[] = [
      ...ROUND,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'add', input: { a: 1, b: 2 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: '3' }] },
    ];
    const out = withCacheBreakpoints({ system: 'Be brief.', tools: TOOLS, messages }, { enabled: true, ttl: '1h' });
    expect(marks(out)).toEqual(['messages.2.content.0', 'messages.4.content.0', 'system.0', 'tools.1']);
    expect(marks(out)).toHaveLength(MAX_CACHE_BREAKPOINTS);
    expect((out.messages[4]!.content as ContentBlockParam[])[0]).toMatchObject({ cache_control: { type: 'ephemeral', ttl: '1h' } });
    expect(sendable(out)).toBeNull();
  });

  test('string content becomes a text block carrying the mark (the seed\'s plain user message)', () => {
    const out = withCacheBreakpoints({ messages: [{ role: 'user', content: '你好' }] }, { enabled: true });
    expect(out).toEqual({ messages: [{ role: 'user', content: [{ type: 'text', text: '你好', cache_control: EPHEMERAL }] }] });
    expect('system' in out).toBe(false);
    expect('tools' in out).toBe(false);
  });

  test('never on thinking blocks or blank text: the last block that can carry it does', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'text', text: ' ' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'redacted_thinking', data: 'x' }] },
    ];
    const out = withCacheBreakpoints({ system: [{ type: 'text', text: 'A' }, { type: 'text', text: '' }], messages }, { enabled: true });
    expect(marks(out)).toEqual(['messages.1.content.0', 'system.0']);
    expect(withCacheBreakpoints({ system: '   ', messages: [{ role: 'user', content: '  ' }] }, { enabled: true })).toEqual({
      system: '   ',
      messages: [{ role: 'user', content: '  ' }],
    });
  });

  test('breakpoints already present count against the limit of 4, in priority order', () => {
    const marked = (text: string): TextBlockParam => ({ type: 'text', text, cache_control: { type: 'ephemeral' } });
    const messages: MessageParam[] = [
      { role: 'user', content: [marked('a'), marked('b')] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'add', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: [marked('d')] }, { type: 'text', text: 'e' }] },
    ];
    const out = withCacheBreakpoints({ system: 'S', tools: TOOLS, messages }, { enabled: true });
    // 3 present (one inside a tool result); one more fits, and it goes to the moving end.
    expect(marks(out)).toEqual(['messages.0.content.0', 'messages.0.content.1', 'messages.2.content.0.content.0', 'messages.2.content.1']);
    expect(out.system).toBe('S');
    expect(sendable(out)).toBeNull();
    // Full: nothing more is added.
    expect(withCacheBreakpoints(out, { enabled: true })).toEqual(out);
  });

  test('a block already marked is not marked twice', () => {
    const once = withCacheBreakpoints({ system: 'S', tools: TOOLS, messages: ROUND }, { enabled: true });
    expect(withCacheBreakpoints(once, { enabled: true })).toEqual(once);
  });

  test('disabled: the request itself, unchanged', () => {
    const request = { system: 'Be brief.', tools: TOOLS, messages: ROUND, model: 'claude-sonnet-4-6' };
    const json = JSON.stringify(request);
    const out = withCacheBreakpoints(request, { enabled: false });
    expect(out).toBe(request);
    expect(JSON.stringify(out)).toBe(json);
  });

  test('other request fields pass through', () => {
    const out = withCacheBreakpoints({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: ROUND }, { enabled: true });
    expect(out.model).toBe('claude-sonnet-4-6');
    expect(out.max_tokens).toBe(64);
  });
});
