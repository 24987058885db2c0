import { fnv1a, fnv1aPair, FNV1A_BASIS, hex8 } from '../../src/conversation/fnv1a';

describe('fnv1a', () => {
  it('matches the published 32-bit FNV-1a test vectors (ASCII: code units are the bytes)', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('hashes UTF-16 code units, not UTF-8 bytes', () => {
    // 'é' is one code unit (0xe9) here, two bytes in UTF-8: the hash is of the one unit.
    expect(fnv1a('é')).toBe(Math.imul(FNV1A_BASIS ^ 0xe9, 0x01000193) >>> 0);
  });

  it('runs two offset bases in one pass, each as the single hash would', () => {
    const text = 'the same text, twice at once';
    expect(fnv1aPair(text, FNV1A_BASIS, 0x050c5d1f)).toEqual([fnv1a(text), fnv1a(text, 0x050c5d1f)]);
  });

  it('prints 8 hex digits, zero-padded', () => {
    expect(hex8(0x1f)).toBe('0000001f');
    expect(hex8(fnv1a('foobar'))).toBe('bf9cf968');
  });
});
