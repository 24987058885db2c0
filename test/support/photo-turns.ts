/**
 * A conversation of photos, for the large-payload tests: each turn `photos N`, the model asks the
 * photo server (test/fixtures/photo-server.ts) for a few images at once (base64 of random bytes:
 * gzip cannot shrink them), then answers `seen N`. The scripted model step and the exact messages
 * a turn adds.
 */
import type { MessageParam } from '../../src/conversation/types';
import type { ScriptStep } from '../../src/testing';
import { photoBase64 } from '../fixtures/photo-bytes';

/** Parallel tool calls per turn. */
export const PHOTOS = 4;
/** Characters of each image: under the 100,000-character cut of a tool result. */
export const PHOTO_CHARS = 90_000;

/** The tool calls of one turn. */
export const photoUses = (turn: number) =>
  Array.from({ length: PHOTOS }, (_, k) => ({ type: 'tool_use' as const, id: `toolu_p${turn}_${k}`, name: 'photo', input: { seed: `${turn}-${k}`, size: PHOTO_CHARS } }));

/** The messages one turn adds, exactly. */
export function expectedPhotoTurn(turn: number): MessageParam[] {
  return [
    { role: 'user', content: `photos ${turn}` },
    { role: 'assistant', content: [{ type: 'text', text: `taking ${PHOTOS} photos` }, ...photoUses(turn)] },
    {
      role: 'user',
      content: photoUses(turn).map((use) => ({
        type: 'tool_result' as const,
        tool_use_id: use.id,
        content: [{ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: photoBase64(use.input.seed, PHOTO_CHARS) } }],
      })),
    },
    { role: 'assistant', content: [{ type: 'text', text: `seen ${turn}` }] },
  ];
}

/** The scripted model (two steps a turn): photos for a new turn, then an answer. */
export const photoModel: ScriptStep = {
  kind: 'respond',
  respond: (request) => {
    const messages = (request.body as { messages: MessageParam[] }).messages;
    const last = messages.at(-1);
    const firstText = (m: MessageParam | undefined): string =>
      typeof m?.content === 'string' ? m.content : (m?.content.find((b) => b.type === 'text') as { text?: string } | undefined)?.text ?? '';
    const turnOf = (text: string): number => Number(text.replace('photos ', ''));
    if (last && firstText(last).startsWith('photos ')) {
      return { kind: 'message', content: [{ type: 'text', text: `taking ${PHOTOS} photos` }, ...photoUses(turnOf(firstText(last)))], stop_reason: 'tool_use' };
    }
    const asked = [...messages].reverse().find((m) => m.role === 'user' && firstText(m).startsWith('photos '));
    return { kind: 'message', content: [{ type: 'text', text: `seen ${turnOf(firstText(asked))}` }], stop_reason: 'end_turn' };
  },
};
