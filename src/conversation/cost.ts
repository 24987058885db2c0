/**
 * What a conversation's token usage costs, estimated from a price table (configurable; the
 * default is Anthropic's list prices, {@link DEFAULT_PRICE_TABLE}). Pure: no Node built-ins (the
 * workflow sandbox imports this for its status and summary).
 */
import { lookupByModel } from '../models/lookup-by-model';
import { DEFAULT_PRICE_TABLE, type PriceTable } from '../models/model-prices';
import type { UsageTotals } from './types';

/** A cost estimate: `priced` is false (and `usd` 0) when the table has no price for the model. */
export interface CostEstimate {
  usd: number;
  priced: boolean;
}

/**
 * The estimated cost of `usage` on `model`. Cache writes are priced at the 5-minute rate (1-hour
 * writes cost more; the totals do not tell them apart). Rounded to a millionth of a dollar.
 */
export function estimateCost(usage: UsageTotals, model: string, table: Readonly<PriceTable> = DEFAULT_PRICE_TABLE): CostEstimate {
  const price = lookupByModel(table, model);
  if (price === undefined) return { usd: 0, priced: false };
  const microDollars =
    usage.inputTokens * price.inputPerMTok +
    usage.outputTokens * price.outputPerMTok +
    usage.cacheCreationInputTokens * price.cacheWritePerMTok +
    usage.cacheReadInputTokens * price.cacheReadPerMTok;
  return { usd: Math.round(microDollars) / 1_000_000, priced: true };
}
