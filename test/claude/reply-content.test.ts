import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages';
import { toRequestContent } from '../../src/claude/reply-content';

describe('toRequestContent', () => {
  test('thinking and redacted thinking go back exactly as received, in place', () => {
    const content = [
      { type: 'thinking', thinking: 'Beijing first.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      { type: 'text', text: 'checking', citations: null },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: '北京' }, caller: { type: 'direct' } },
    ] as ContentBlock[];
    expect(toRequestContent(content)).toEqual([
      { type: 'thinking', thinking: 'Beijing first.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
      { type: 'text', text: 'checking' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: '北京' } },
    ]);
  });

  test('a thinking block cut before its signature (max_tokens while thinking) is not kept: the API would refuse it', () => {
    const content = [{ type: 'thinking', thinking: 'Let me think about', signature: '' }] as ContentBlock[];
    expect(toRequestContent(content)).toEqual([]);
  });
});
