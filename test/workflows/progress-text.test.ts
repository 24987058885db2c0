import { claudeCallSummary, clip, listToolsSummary, nextRound, toolCallSummary } from '../../src/workflows/progress-text';
import type { MessageParam, ToolCatalog } from '../../src/conversation/types';

describe('Web UI texts', () => {
  test('clip cuts on code points, marks the cut, keeps one line', () => {
    expect(clip('北京', 5)).toBe('北京');
    expect(clip('😀😀😀😀', 3)).toBe('😀😀…');
    expect(clip('a\n  b', 10)).toBe('a b');
  });

  test('a tool call: MCP name, arguments as JSON (cut at 200 characters), server', () => {
    expect(toolCallSummary({ server: 'weather', tool: 'get_weather', arguments: { city: '北京' } })).toBe('get_weather {"city":"北京"} · weather');
    const long = toolCallSummary({ server: 's', tool: 't', arguments: { text: 'x'.repeat(1000) } });
    expect(long).toBe(`t {"text":"${'x'.repeat(190)}… · s`);
  });

  test('the Claude round and what led to it, from the messages', () => {
    const user: MessageParam = { role: 'user', content: 'hi' };
    const toolUse: MessageParam = { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'x', input: {} }, { type: 'tool_use', id: 'b', name: 'x', input: {} }] };
    const results: MessageParam = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'a', content: '1' }, { type: 'tool_result', tool_use_id: 'b', content: '2' }],
    };
    expect(nextRound([user])).toEqual({ round: 1 });
    expect(nextRound([user, toolUse, results])).toEqual({ round: 2, after: 'after tool_use ×2' });
    expect(nextRound([user, toolUse, results, toolUse, results])).toEqual({ round: 3, after: 'after tool_use ×2' });
    // A new turn starts counting again.
    expect(nextRound([user, toolUse, results, { role: 'assistant', content: 'ok' }, user])).toEqual({ round: 1 });
    expect(nextRound([user, { role: 'assistant', content: [{ type: 'text', text: 'paused' }] }])).toEqual({ round: 2, after: 'after pause_turn' });
    expect(claudeCallSummary([user, toolUse, results], 'm')).toBe('claude round 2 · after tool_use ×2 · m');
    expect(claudeCallSummary(undefined, 'm')).toBe('claude · m');
  });

  test('a listing names the catalogue it checks', () => {
    const catalog: ToolCatalog = {
      digest: 'd',
      tools: [
        { name: 'a', input_schema: { type: 'object' } },
        { name: 'b', input_schema: { type: 'object' } },
        { name: 'c', input_schema: { type: 'object' } },
      ],
      routes: [
        ['a', { server: 's1', name: 'a', idempotent: false, timeoutMs: 1 }],
        ['b', { server: 's2', name: 'b', idempotent: false, timeoutMs: 1 }],
        ['c', { server: 's2', name: 'c', idempotent: false, timeoutMs: 1 }],
      ],
    };
    expect(listToolsSummary(null)).toBe('list tools: first listing');
    expect(listToolsSummary(catalog)).toBe('list tools: 2 servers, 3 tools');
  });
});
