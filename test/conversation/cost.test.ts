import { estimateCost } from '../../src/conversation/cost';
import type { PriceTable } from '../../src/models/model-prices';
import type { UsageTotals } from '../../src/conversation/types';

const MILLION = 1_000_000;
const only = (field: keyof UsageTotals, tokens = MILLION): UsageTotals => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
  [field]: tokens,
});

describe('estimateCost', () => {
  test('prices each kind of token at its own rate (Sonnet 4.6, the default model)', () => {
    expect(estimateCost(only('inputTokens'), 'claude-sonnet-4-6')).toEqual({ usd: 3, priced: true });
    expect(estimateCost(only('outputTokens'), 'claude-sonnet-4-6')).toEqual({ usd: 15, priced: true });
    expect(estimateCost(only('cacheCreationInputTokens'), 'claude-sonnet-4-6')).toEqual({ usd: 3.75, priced: true });
    expect(estimateCost(only('cacheReadInputTokens'), 'claude-sonnet-4-6')).toEqual({ usd: 0.3, priced: true });
  });

  test('a seed-sized conversation', () => {
    // Three requests of the seed's weather chat, the prefix cached after the first.
    const usage: UsageTotals = { inputTokens: 1_234, outputTokens: 456, cacheCreationInputTokens: 2_048, cacheReadInputTokens: 4_096 };
    // 1234×3 + 456×15 + 2048×3.75 + 4096×0.3 = 3702 + 6840 + 7680 + 1228.8 = 19450.8 µ$
    expect(estimateCost(usage, 'claude-sonnet-4-6')).toEqual({ usd: 0.019451, priced: true });
  });

  test.each([
    ['claude-sonnet-4-20250514', 3],
    ['claude-sonnet-4-5-20250929', 3],
    ['claude-opus-4-20250514', 15],
    ['claude-opus-4-1-20250805', 15],
    ['claude-opus-4-5-20251101', 5],
    ['claude-opus-4-5@20251101', 5],
    ['claude-opus-4-6', 5],
    ['claude-haiku-4-5', 1],
    ['claude-haiku-4-5-20251001', 1],
    ['claude-3-5-haiku-latest', 0.8],
    ['claude-sonnet-5', 2],
  ])('%s is matched by its family prefix (input $%p/MTok)', (model, inputPerMTok) => {
    expect(estimateCost(only('inputTokens'), model)).toEqual({ usd: inputPerMTok, priced: true });
  });

  test.each(['gpt-4o', 'claude-opus-5-5', 'claude-sonnet-4-9', 'claude-opus-45', ''])('%p is unpriced, not priced wrongly', (model) => {
    expect(estimateCost(only('inputTokens'), model)).toEqual({ usd: 0, priced: false });
  });

  test('the table is configurable, and the longest matching prefix wins', () => {
    const table: PriceTable = {
      'my-model': { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 },
      'my-model-pro': { inputPerMTok: 10, outputPerMTok: 20, cacheWritePerMTok: 12.5, cacheReadPerMTok: 1 },
    };
    expect(estimateCost(only('outputTokens'), 'my-model-20260101', table)).toEqual({ usd: 2, priced: true });
    expect(estimateCost(only('outputTokens'), 'my-model-pro-20260101', table)).toEqual({ usd: 20, priced: true });
    expect(estimateCost(only('outputTokens'), 'claude-sonnet-4-6', table)).toEqual({ usd: 0, priced: false });
  });

  test('zero usage costs nothing; tiny usage is not rounded away', () => {
    expect(estimateCost(only('inputTokens', 0), 'claude-sonnet-4-6')).toEqual({ usd: 0, priced: true });
    expect(estimateCost(only('inputTokens', 10), 'claude-3-haiku-20240307')).toEqual({ usd: 0.000003, priced: true });
  });

  test('web searches at $10 per 1,000 (list price, any model); web fetches cost their tokens only', () => {
    const usage: UsageTotals = { inputTokens: 1_000, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, webSearchRequests: 3, webFetchRequests: 7 };
    // 1000×3 µ$ + 3 × $0.01
    expect(estimateCost(usage, 'claude-sonnet-4-6')).toEqual({ usd: 0.033, priced: true });
    expect(estimateCost({ ...usage, inputTokens: 0 }, 'claude-haiku-4-5')).toEqual({ usd: 0.03, priced: true });
    // A price table of one's own may price searches otherwise.
    const table: PriceTable = { 'my-model': { inputPerMTok: 1, outputPerMTok: 1, cacheWritePerMTok: 1, cacheReadPerMTok: 1, webSearchPerThousand: 5 } };
    expect(estimateCost({ ...usage, inputTokens: 0 }, 'my-model', table)).toEqual({ usd: 0.015, priced: true });
  });

  test('code execution: its container time is not estimated, and the estimate says so', () => {
    const usage: UsageTotals = { ...only('inputTokens', 0), codeExecutionCalls: 2 };
    expect(estimateCost(usage, 'claude-sonnet-4-6')).toEqual({ usd: 0, priced: true, note: 'code execution container time not included: billed per container-hour after the free hours' });
    expect(estimateCost(only('inputTokens'), 'claude-sonnet-4-6').note).toBeUndefined();
  });
});
