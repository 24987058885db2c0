/**
 * Anthropic's list prices per model, by model-name prefix, for the conversation's cost estimate.
 * Pure: no Node built-ins (the workflow sandbox imports this).
 */
/** One model's prices in USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Writing the prompt cache (5-minute TTL: 1.25× input). */
  cacheWritePerMTok: number;
  /** Reading the prompt cache (0.1× input). */
  cacheReadPerMTok: number;
  /** USD per 1,000 web searches (server tool); unset: {@link WEB_SEARCH_PER_THOUSAND}, the list price. */
  webSearchPerThousand?: number;
}

/**
 * Web search's list price, USD per 1,000 searches, the same on every model (its results are
 * billed as input tokens besides). Web fetch costs nothing beyond the tokens of what it fetched.
 * Code execution is billed by container time (per container-hour, after an organization's free
 * hours each month), which no reply reports: the estimate leaves it out, and says so.
 */
export const WEB_SEARCH_PER_THOUSAND = 10;

/** Prices by model-name prefix: `claude-sonnet-4` prices `claude-sonnet-4-20250514` (see `lookupByModel`). */
export type PriceTable = Record<string, ModelPrice>;

/** One row of the table (a function so the rows stay short and typed). */
function tier(inputPerMTok: number, outputPerMTok: number, cacheWritePerMTok: number, cacheReadPerMTok: number): ModelPrice {
  return { inputPerMTok, outputPerMTok, cacheWritePerMTok, cacheReadPerMTok };
}

const OPUS_4 = tier(15, 75, 18.75, 1.5);
const OPUS_4_5 = tier(5, 25, 6.25, 0.5);
const SONNET_4 = tier(3, 15, 3.75, 0.3);

/**
 * List prices, USD per million tokens. Source: https://platform.claude.com/docs/en/about-claude/pricing
 * and the model overview pages there, read 2026 (5-minute cache writes = 1.25× input, cache reads
 * = 0.1× input). Models whose list price is not confirmed here (newer generations, tiered prices)
 * are left out on purpose: an unknown model is reported as unpriced rather than priced wrongly.
 */
export const DEFAULT_PRICE_TABLE: Readonly<PriceTable> = {
  'claude-opus-4': OPUS_4,
  'claude-opus-4-0': OPUS_4,
  'claude-opus-4-1': OPUS_4,
  'claude-opus-4-5': OPUS_4_5,
  'claude-opus-4-6': OPUS_4_5,
  'claude-opus-4-7': OPUS_4_5,
  'claude-opus-4-8': OPUS_4_5,
  'claude-opus-5': OPUS_4_5,
  'claude-sonnet-4': SONNET_4,
  'claude-sonnet-4-0': SONNET_4,
  'claude-sonnet-4-5': SONNET_4,
  'claude-sonnet-4-6': SONNET_4,
  'claude-sonnet-5': tier(2, 10, 2.5, 0.2),
  'claude-haiku-4-5': tier(1, 5, 1.25, 0.1),
  'claude-3-7-sonnet': SONNET_4,
  'claude-3-5-haiku': tier(0.8, 4, 1, 0.08),
  'claude-3-haiku': tier(0.25, 1.25, 0.3, 0.03),
};
