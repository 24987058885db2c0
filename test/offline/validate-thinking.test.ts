/**
 * The fake's checks on extended thinking (src/offline/validate-thinking.ts, through
 * validateMessagesRequest): what the real API answers 400 `invalid_request_error` with, worded as it
 * words them.
 */
import { respondByRules, signThinking, validateMessagesRequest } from '../../src/offline';

const tool = { name: 'get_weather', description: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const signed = (thinking: string) => ({ type: 'thinking', thinking, signature: signThinking(thinking) });
const call = (id: string) => ({ type: 'tool_use', id, name: 'get_weather', input: { city: '北京' } });
const result = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'sunny' }] });

function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'claude-sonnet-4-5', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, tools: [tool], messages: [{ role: 'user', content: 'hi' }], ...overrides };
}

/** Two tool rounds of one turn, the second still open: every reply leads with its (signed) thinking. */
const LOOP = [
  { role: 'user', content: '北京天气？' },
  { role: 'assistant', content: [signed('Beijing: call the tool.'), call('toolu_1')] },
  result('toolu_1'),
  { role: 'assistant', content: [signed('Once more.'), { type: 'text', text: 'again' }, call('toolu_2')] },
  result('toolu_2'),
];

describe('thinking settings', () => {
  test('the forms the SDK types take pass', () => {
    expect(validateMessagesRequest(request())).toBeNull();
    expect(validateMessagesRequest(request({ thinking: { type: 'adaptive' }, output_config: { effort: 'xhigh' } }))).toBeNull();
    expect(validateMessagesRequest(request({ thinking: { type: 'disabled' } }))).toBeNull();
    expect(validateMessagesRequest(request({ thinking: { type: 'enabled', budget_tokens: 2048 }, temperature: 1, tool_choice: { type: 'auto' } }))).toBeNull();
    expect(validateMessagesRequest(request({ thinking: { type: 'adaptive' }, tool_choice: { type: 'any' } }))).toBeNull();
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['a budget not below max_tokens', { max_tokens: 2048 }, '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size'],
    ['a budget under 1024', { thinking: { type: 'enabled', budget_tokens: 512 } }, 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'],
    ['no budget', { thinking: { type: 'enabled' } }, 'thinking.enabled.budget_tokens: Field required'],
    ['an unknown type', { thinking: { type: 'auto' } }, "thinking: Input tag 'auto' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive', 'between_tools'"],
    ['an unknown effort', { thinking: { type: 'adaptive' }, output_config: { effort: 'extreme' } }, "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'"],
    ['a temperature other than 1', { temperature: 0.5 }, '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking'],
    ['top_k', { top_k: 5 }, '`top_k` must be unset when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking'],
    ['tool_choice any with a budget', { tool_choice: { type: 'any' } }, 'Thinking may not be enabled when tool_choice forces tool use.'],
    ['tool_choice tool with a budget', { tool_choice: { type: 'tool', name: 'get_weather' } }, 'Thinking may not be enabled when tool_choice forces tool use.'],
  ])('refuses %s', (_name, overrides, message) => {
    expect(validateMessagesRequest(request(overrides))).toBe(message);
  });
});

describe('thinking blocks passed back', () => {
  test('a tool loop whose replies lead with their thinking, as received, passes', () => {
    expect(validateMessagesRequest(request({ messages: LOOP }))).toBeNull();
    // A redacted block leads as well, and a script's own signatures are taken as they are.
    const redacted = [LOOP[0], { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'EmwKAhgB' }, { type: 'thinking', thinking: 't', signature: 'sig-from-a-script' }, call('toolu_1')] }, result('toolu_1')];
    expect(validateMessagesRequest(request({ messages: redacted }))).toBeNull();
  });

  test('thinking dropped from the assistant turn that holds the tool_use: the real API\'s 400', () => {
    // The loop's first reply is the turn's start: without its thinking, the whole loop is refused.
    const dropped = [LOOP[0], { role: 'assistant', content: [call('toolu_1')] }, ...LOOP.slice(2)];
    expect(validateMessagesRequest(request({ messages: dropped }))).toBe(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    );
    const withText = [LOOP[0], { role: 'assistant', content: [{ type: 'text', text: 'checking' }, call('toolu_1')] }, result('toolu_1')];
    expect(validateMessagesRequest(request({ messages: withText }))).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\./);
    // A thinking block moved behind the call is no better.
    const moved = [LOOP[0], { role: 'assistant', content: [call('toolu_1'), signed('late')] }, result('toolu_1')];
    expect(validateMessagesRequest(request({ messages: moved }))).toMatch(/but found `tool_use`/);
    // Later replies of the same loop may go without (a model that does not think between tool calls).
    const later = [...LOOP.slice(0, 3), { role: 'assistant', content: [call('toolu_2')] }, result('toolu_2')];
    expect(validateMessagesRequest(request({ messages: later }))).toBeNull();
  });

  test('without a budget (off, disabled, adaptive) or outside a tool loop, replies without thinking pass', () => {
    const bare = [LOOP[0], { role: 'assistant', content: [call('toolu_1')] }, result('toolu_1')];
    expect(validateMessagesRequest(request({ messages: bare, thinking: undefined }))).toBeNull();
    expect(validateMessagesRequest(request({ messages: bare, thinking: { type: 'adaptive' } }))).toBeNull();
    expect(validateMessagesRequest(request({ messages: [...bare, { role: 'assistant', content: 'done' }, { role: 'user', content: 'next' }] }))).toBeNull();
    // Only the final turn needs it: an older tool turn without thinking (it was off) is fine.
    const older = [LOOP[0], { role: 'assistant', content: [call('toolu_0')] }, result('toolu_0'), { role: 'assistant', content: 'done' }];
    expect(validateMessagesRequest(request({ messages: [...older, ...LOOP] }))).toBeNull();
  });

  test('an edited thinking block fails its signature; a block without one is refused', () => {
    const edited = [LOOP[0], { role: 'assistant', content: [{ ...signed('Beijing: call the tool.'), thinking: 'Beijing: call the tool!' }, call('toolu_1')] }, result('toolu_1')];
    expect(validateMessagesRequest(request({ messages: edited }))).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    const unsigned = [LOOP[0], { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: '' }, call('toolu_1')] }, result('toolu_1')];
    expect(validateMessagesRequest(request({ messages: unsigned }))).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    const missing = [LOOP[0], { role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }, call('toolu_1')] }, result('toolu_1')];
    expect(validateMessagesRequest(request({ messages: missing }))).toBe('messages.1.content.0.signature: Field required');
  });

  test('a prefilled final assistant message may not hold thinking when thinking is off', () => {
    const prefill = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [signed('hm')] }];
    expect(validateMessagesRequest(request({ messages: prefill, thinking: undefined }))).toBe(
      'messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.',
    );
    expect(validateMessagesRequest(request({ messages: prefill }))).toBeNull();
  });
});

describe('the offline stand-in with thinking on', () => {
  test('its answer starts with a signed thinking block saying what the rules decided; off, there is none', () => {
    const body = request({ thinking: { type: 'adaptive' }, messages: [{ role: 'user', content: 'weather in Paris?' }] });
    const answer = respondByRules(body);
    expect(answer.stop_reason).toBe('tool_use');
    const [first, ...rest] = answer.content;
    expect(first).toEqual({ type: 'thinking', thinking: expect.stringMatching(/^\[offline stand-in\] .*get_weather/), signature: expect.any(String) });
    expect(first?.type === 'thinking' && first.signature).toBe(first?.type === 'thinking' ? signThinking(first.thinking) : '');
    expect(rest.map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(respondByRules({ ...body, thinking: undefined }).content[0]?.type).toBe('text');
    // Sent back as given, the next request passes the fake's checks.
    const use = rest[1]!;
    const next = request({ messages: [{ role: 'user', content: 'weather in Paris?' }, { role: 'assistant', content: answer.content.map((b) => (b.type === 'tool_use' ? { ...b, id: 'toolu_x' } : b)) }, result('toolu_x')] });
    expect(use.type).toBe('tool_use');
    expect(validateMessagesRequest(next)).toBeNull();
  });
});
