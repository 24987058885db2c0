/**
 * What a conversation's token usage costs, estimated from a price table (configurable; the
 * default is Anthropic's list prices, {@link DEFAULT_PRICE_TABLE}). Pure: no Node built-ins (the
 * workflow sandbox imports this for its status and summary).
 */
import { lookupByModel } from '../models/lookup-by-model';
import { DEFAULT_PRICE_TABLE, WEB_SEARCH_PER_THOUSAND, type PriceTable } from '../models/model-prices';
import type { UsageTotals } from './usage-totals';

/** A cost estimate: `priced` is false (and `usd` 0) when the table has no price for the model. */
export interface CostEstimate {
  usd: number;
  priced: boolean;
  /** What the estimate leaves out, when the usage holds it (code execution's container time). */
  note?: string;
}

/** The estimate's note when the conversation ran code: container time is billed apart and reported by no reply. */
export const CODE_EXECUTION_COST_NOTE = 'code execution container time not included: billed per container-hour after the free hours';

/**
 * The estimated cost of `usage` on `model`. Cache writes are priced at the 5-minute rate (1-hour
 * writes cost more; the totals do not tell them apart). Web searches at the table's price per
 * 1,000 (the list price by default); web fetches cost their tokens only; code execution's
 * container time is not known here and not included. Rounded to a millionth of a dollar.
 */
export function estimateCost(usage: UsageTotals, model: string, table: Readonly<PriceTable> = DEFAULT_PRICE_TABLE): CostEstimate {
  const price = lookupByModel(table, model);
  const note = (usage.codeExecutionCalls ?? 0) > 0 ? { note: CODE_EXECUTION_COST_NOTE } : {};
  if (price === undefined) return { usd: 0, priced: false, ...note };
  const microDollars =
    usage.inputTokens * price.inputPerMTok +
    usage.outputTokens * price.outputPerMTok +
    usage.cacheCreationInputTokens * price.cacheWritePerMTok +
    usage.cacheReadInputTokens * price.cacheReadPerMTok +
    // Per 1,000 searches in USD is per search in thousandths of a dollar: × 1,000 in millionths.
    (usage.webSearchRequests ?? 0) * (price.webSearchPerThousand ?? WEB_SEARCH_PER_THOUSAND) * 1_000;
  return { usd: Math.round(microDollars) / 1_000_000, priced: true, ...note };
}
