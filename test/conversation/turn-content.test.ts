import { turnContentLabel, turnContentProblem, withTurnContent, type TurnContent } from '../../src/conversation/turn-content';
import type { MessageParam } from '../../src/conversation/types';

const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' } };
const attached: TurnContent = { attachments: [{ server: 's', uri: 'a://i', blocks: [image] }] };
const prompt: TurnContent = {
  prompt: {
    server: 's',
    name: 'p',
    messages: [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'three' },
    ],
  },
};

describe('turn content', () => {
  test('attachments follow the text in one user message', () => {
    expect(withTurnContent([], 'look', attached)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'look' }, image] }]);
  });
  test("a prompt's messages go in as they are; a text after them joins the last user message", () => {
    const before: MessageParam[] = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }];
    expect(withTurnContent(before, '', prompt)).toEqual([...before, ...(prompt.prompt?.messages ?? [])]);
    expect(withTurnContent(before, 'and four', prompt).at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'three' }, { type: 'text', text: 'and four' }] });
  });
  test('roles keep alternating after a trailing user message', () => {
    const out = withTurnContent([{ role: 'user', content: 'left over' }], '', prompt);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(out[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'left over' }, { type: 'text', text: 'one' }] });
  });
  test('what cannot be a turn', () => {
    expect(turnContentProblem('', undefined)).toBe('the message is empty');
    expect(turnContentProblem('', attached)).toMatch(/say what to do with the attached resources/);
    expect(turnContentProblem('', prompt)).toBeUndefined();
    expect(turnContentProblem('x', { prompt: { server: 's', name: 'p', messages: [] } })).toMatch(/has no messages/);
    expect(turnContentProblem('x', { attachments: [{ server: 's', uri: 'a://b', blocks: [{ type: 'text', text: 'y'.repeat(1024 * 1024 + 1) }] }] })).toMatch(/a turn takes at most 1 MiB/);
  });
  test('a label for status and the Web UI', () => {
    expect(turnContentLabel({ ...attached, ...prompt })).toBe('[prompt s/p] [+1 attached: s:a://i]');
  });
});
