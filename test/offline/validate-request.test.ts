import { validateMessagesRequest } from '../../src/offline';

const tool = { name: 'get_weather', description: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };

/** A valid request with the given overrides. */
function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], ...overrides };
}

/** A valid tool round: question, call, result. */
function toolRound(resultBlocks: unknown[], id = 'toolu_01'): unknown[] {
  return [
    { role: 'user', content: 'weather?' },
    { role: 'assistant', content: [{ type: 'text', text: 'checking' }, { type: 'tool_use', id, name: 'get_weather', input: { city: 'x' } }] },
    { role: 'user', content: resultBlocks },
  ];
}

describe('validateMessagesRequest', () => {
  it('accepts valid requests', () => {
    expect(validateMessagesRequest(request())).toBeNull();
    expect(validateMessagesRequest(request({ system: 'be brief', tools: [tool] }))).toBeNull();
    expect(validateMessagesRequest(request({ system: [{ type: 'text', text: 'be brief' }] }))).toBeNull();
    expect(
      validateMessagesRequest(
        request({ tools: [tool], messages: toolRound([{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' }, { type: 'text', text: 'thanks' }]) }),
      ),
    ).toBeNull();
    // A final assistant message (prefill) may be empty.
    expect(validateMessagesRequest(request({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: '' }] }))).toBeNull();
  });

  it.each([
    ['a non-object body', [], 'body'],
    ['a missing model', { max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }, 'model: Field required'],
    ['an empty model', request({ model: '' }), 'model:'],
    ['a missing max_tokens', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 'max_tokens: Field required'],
    ['a zero max_tokens', request({ max_tokens: 0 }), 'max_tokens: Input should be greater than or equal to 1'],
    ['a fractional max_tokens', request({ max_tokens: 1.5 }), 'max_tokens: Input should be a valid integer'],
    ['missing messages', { model: 'm', max_tokens: 1 }, 'messages: Field required'],
    ['empty messages', request({ messages: [] }), 'messages: at least one message is required'],
    ['a system message', request({ messages: [{ role: 'system', content: 'x' }, { role: 'user', content: 'hi' }] }), "messages.0.role: Input should be 'user' or 'assistant'"],
    ['an unknown role', request({ messages: [{ role: 'user', content: 'hi' }, { role: 'tool', content: 'x' }] }), 'messages.1.role'],
    ['an assistant first message', request({ messages: [{ role: 'assistant', content: 'hi' }, { role: 'user', content: 'x' }] }), 'first message must use the "user" role'],
    ['an empty user string', request({ messages: [{ role: 'user', content: '' }] }), 'messages.0: all messages must have non-empty content'],
    ['an empty user array', request({ messages: [{ role: 'user', content: [] }] }), 'messages.0: all messages must have non-empty content'],
    ['a blank text block', request({ messages: [{ role: 'user', content: [{ type: 'text', text: '  ' }] }] }), 'non-whitespace text'],
    ['content of the wrong type', request({ messages: [{ role: 'user', content: 42 }] }), 'messages.0.content'],
    ['a stream flag that is not a boolean', request({ stream: 'yes' }), 'stream: Input should be a valid boolean'],
    ['a system of the wrong type', request({ system: 42 }), 'system:'],
    ['a system block that is not text', request({ system: [{ type: 'image' }] }), 'system.0'],
    ['a bad tool name', request({ tools: [{ ...tool, name: 'get weather' }] }), "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"],
    ['a too long tool name', request({ tools: [{ ...tool, name: 'x'.repeat(65) }] }), 'tools.0.custom.name'],
    ['a missing input_schema', request({ tools: [{ name: 'a' }] }), 'tools.0.custom.input_schema: Field required'],
    ['a non-object input_schema', request({ tools: [{ name: 'a', input_schema: { type: 'string' } }] }), "input_schema.type: Input should be 'object'"],
    ['duplicate tool names', request({ tools: [tool, tool] }), 'tools: Tool names must be unique.'],
    ['a tool_choice naming no tool', request({ tools: [tool], tool_choice: { type: 'tool', name: 'nope' } }), "Tool 'nope' not found"],
    ['a temperature above 1', request({ temperature: 2 }), 'temperature'],
  ])('rejects %s', (_name, body, expected) => {
    expect(validateMessagesRequest(body)).toContain(expected);
  });

  it('rejects a tool_use with no tool_result in the next message', () => {
    const messages = toolRound([{ type: 'text', text: 'and?' }], 'toolu_abc');
    expect(validateMessagesRequest(request({ tools: [tool], messages }))).toBe(
      'messages.1: tool_use ids were found without tool_result blocks immediately after: toolu_abc. ' +
        'Each tool_use block must have a corresponding tool_result block in the next message.',
    );
  });

  it('rejects a tool_use left as the last message', () => {
    const messages = toolRound([]).slice(0, 2);
    expect(validateMessagesRequest(request({ tools: [tool], messages }))).toContain('tool_use ids were found without tool_result blocks immediately after: toolu_01');
  });

  it('rejects a tool_result whose tool_use is not in the immediately preceding assistant message', () => {
    const messages = [
      ...toolRound([{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' }]),
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'again' }] },
    ];
    expect(validateMessagesRequest(request({ tools: [tool], messages }))).toContain(
      'messages.4.content.0: unexpected tool_use_id found in tool_result blocks: toolu_01',
    );
  });

  it('rejects tool_result blocks after other content', () => {
    const messages = toolRound([{ type: 'text', text: 'here' }, { type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' }]);
    expect(validateMessagesRequest(request({ tools: [tool], messages }))).toContain('messages.2.content.1: tool_result blocks must come first');
  });

  it('rejects blocks in the wrong role and malformed tool blocks', () => {
    expect(validateMessagesRequest(request({ messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'x', input: {} }] }] }))).toContain(
      'tool_use blocks can only be in assistant messages',
    );
    const badInput = toolRound([{ type: 'tool_result', tool_use_id: 'toolu_01' }]);
    (badInput[1] as { content: Array<Record<string, unknown>> }).content[1] = { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: 'x' };
    expect(validateMessagesRequest(request({ tools: [tool], messages: badInput }))).toContain('messages.1.content.1.input');
  });

  it('rejects duplicate tool_use ids and duplicate results', () => {
    const messages = [
      ...toolRound([{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'a' }]),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'b' }] },
    ];
    expect(validateMessagesRequest(request({ tools: [tool], messages }))).toContain('tool_use ids must be unique');
    const twice = toolRound([
      { type: 'tool_result', tool_use_id: 'toolu_01', content: 'a' },
      { type: 'tool_result', tool_use_id: 'toolu_01', content: 'b' },
    ]);
    expect(validateMessagesRequest(request({ tools: [tool], messages: twice }))).toContain('single result');
  });

  it('rejects tool blocks in a request without tools', () => {
    const messages = toolRound([{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' }]);
    expect(validateMessagesRequest(request({ messages }))).toContain('must define tools');
  });
});
