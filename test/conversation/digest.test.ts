import { SEED_TRANSCRIPT } from '../support/seed-transcript';
import { digestOf, EMPTY_DIGEST, extendDigest } from '../../src/conversation/digest';
import type { MessageParam } from '../../src/conversation/types';

const transcript: MessageParam[] = SEED_TRANSCRIPT.slice(2, 5);

describe('rolling transcript digest', () => {
  test('the empty transcript has the empty digest; every digest is 16 hex digits', () => {
    expect(digestOf([])).toBe(EMPTY_DIGEST);
    expect(EMPTY_DIGEST).toMatch(/^[0-9a-f]{16}$/);
    expect(digestOf(transcript)).toMatch(/^[0-9a-f]{16}$/);
  });

  test('rolling: extending message by message, or from any midpoint, gives the digest of the whole', () => {
    const stepwise = transcript.reduce((digest, message) => extendDigest(digest, message), EMPTY_DIGEST);
    expect(stepwise).toBe(digestOf(transcript));
    for (let i = 0; i <= transcript.length; i++) {
      expect(digestOf(transcript.slice(i), digestOf(transcript.slice(0, i)))).toBe(digestOf(transcript));
    }
  });

  test('sees any change: a character, the order, a dropped or extra message, an is_error flag', () => {
    const whole = digestOf(transcript);
    const changed: MessageParam[][] = [
      [{ role: 'user', content: '北京今天天气怎么样？' }, ...transcript.slice(1)],
      [transcript[1]!, transcript[0]!, transcript[2]!],
      transcript.slice(0, 2),
      [...transcript, { role: 'assistant', content: [{ type: 'text', text: '晴' }] }],
      [
        ...transcript.slice(0, 2),
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01AbC', content: '北京今天晴，25°C', is_error: true }] },
      ],
    ];
    const digests = changed.map((messages) => digestOf(messages));
    for (const digest of digests) expect(digest).not.toBe(whole);
    expect(new Set(digests).size).toBe(digests.length);
  });

  test('is stable across runs and processes: pinned values (FNV-1a 32 ×2 over UTF-16 code units, checked independently)', () => {
    // Workflows and activities on different workers must agree, and recorded histories carry digests.
    expect(digestOf([{ role: 'user', content: '北京今天天气怎么样' }])).toBe('186d4ec7f2d191b5');
    expect(
      digestOf([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
      ]),
    ).toBe('7740523dc8901923');
  });

  test('a JSON round trip (what a Temporal payload does) keeps the digest', () => {
    expect(digestOf(JSON.parse(JSON.stringify(transcript)) as MessageParam[])).toBe(digestOf(transcript));
  });
});
