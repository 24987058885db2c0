/**
 * The tools a request defines: the catalogue, or, when it is empty and the history holds tool calls,
 * stand-ins the model may not call, so the API does not refuse the request.
 */
import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { requestTools } from '../../src/claude/request-tools';
import { validateMessagesRequest } from '../../src/offline';
import { SEED_TRANSCRIPT } from '../support/seed-transcript';

const ECHO: Tool = { name: 'echo', input_schema: { type: 'object', properties: { text: { type: 'string' } } } };

/** A round of calls with the given names, and their results. */
function round(...names: string[]): MessageParam[] {
  return [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: names.map((name, i) => ({ type: 'tool_use' as const, id: `toolu_${i}`, name, input: {} })) },
    { role: 'user', content: names.map((_, i) => ({ type: 'tool_result' as const, tool_use_id: `toolu_${i}`, content: 'done' })) },
  ];
}

describe('requestTools', () => {
  test('a catalogue goes out as it is, with no tool_choice', () => {
    expect(requestTools([ECHO], SEED_TRANSCRIPT)).toEqual({ tools: [ECHO] });
    expect(requestTools([ECHO], [{ role: 'user', content: 'hi' }])).toEqual({ tools: [ECHO] });
  });

  test('no catalogue and no tool blocks: no tools', () => {
    expect(requestTools([], [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }])).toEqual({});
  });

  test('no catalogue and tool calls: one stand-in per tool called, in order of first use, under tool_choice none', () => {
    const fields = requestTools([], round('b_tool', 'a_tool', 'b_tool'));
    expect(fields.tool_choice).toEqual({ type: 'none' });
    expect(fields.tools?.map((tool) => tool.name)).toEqual(['b_tool', 'a_tool']);
    for (const tool of (fields.tools ?? []) as Tool[]) {
      expect(tool.description).toMatch(/no longer available/i);
      expect(tool.input_schema).toEqual({ type: 'object', properties: {} });
    }
  });

  test('a name the API would refuse as a tool name is not a stand-in; with none left, one generic stand-in', () => {
    expect(requestTools([], round('ok_name', 'bad.name')).tools?.map((tool) => tool.name)).toEqual(['ok_name']);
    expect(requestTools([], round('bad.name')).tools?.map((tool) => tool.name)).toEqual(['unavailable_tool']);
  });

  test('the request the fake validates like the real API: refused without tools, accepted with the stand-ins', () => {
    const body = { model: 'claude-sonnet-4-6', max_tokens: 64, messages: SEED_TRANSCRIPT };
    expect(validateMessagesRequest(body)).toContain('must define tools');
    expect(validateMessagesRequest({ ...body, ...requestTools([], SEED_TRANSCRIPT) })).toBeNull();
  });
});
