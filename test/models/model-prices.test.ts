import { DEFAULT_PRICE_TABLE } from '../../src/models/model-prices';

describe('DEFAULT_PRICE_TABLE', () => {
  test('every default row: cache write = 1.25× input, cache read = 0.1× input (Claude 3 Haiku aside, as listed)', () => {
    expect(DEFAULT_PRICE_TABLE['claude-3-haiku']).toEqual({ inputPerMTok: 0.25, outputPerMTok: 1.25, cacheWritePerMTok: 0.3, cacheReadPerMTok: 0.03 });
    for (const [model, price] of Object.entries(DEFAULT_PRICE_TABLE)) {
      if (model === 'claude-3-haiku') continue;
      expect([model, price.cacheWritePerMTok]).toEqual([model, +(price.inputPerMTok * 1.25).toFixed(4)]);
      expect([model, price.cacheReadPerMTok]).toEqual([model, +(price.inputPerMTok * 0.1).toFixed(4)]);
    }
  });
});
