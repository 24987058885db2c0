import { buildMessageBody } from '../../src/offline/message-body';
import { messageEvents } from '../../src/offline/message-events';

/** The text deltas of a streamed answer, in order. */
function textDeltas(text: string, byWords: boolean): string[] {
  const body = buildMessageBody({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' }, 'claude-sonnet-4-6', 100);
  return messageEvents(body, 4, byWords).flatMap((event) => {
    const delta = (event.data as { delta?: { type?: string; text?: string } }).delta;
    return delta?.type === 'text_delta' && delta.text !== undefined ? [delta.text] : [];
  });
}

describe('streamed message events', () => {
  test('by default, text deltas of chunkChars characters', () => {
    expect(textDeltas('Hello there, world', false)).toEqual(['Hell', 'o th', 'ere,', ' wor', 'ld']);
  });

  test('chunkWords: one word each, with the whitespace after it; together the whole text', () => {
    const text = '  Hello there,\nworld  and 北京 ';
    const deltas = textDeltas(text, true);
    expect(deltas).toEqual(['  Hello ', 'there,\n', 'world  ', 'and ', '北京 ']);
    expect(deltas.join('')).toBe(text);
    expect(textDeltas('', true)).toEqual([]);
  });
});
