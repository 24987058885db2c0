/**
 * Claude's thinking as a conversation sets it (`--thinking`, `StartOptions.thinking`, the
 * `setThinking` update), and as the Messages API takes it. Plain data: it lives in the workflow's
 * options and state, and the `--thinking` spellings are read and written here. Pure: no Node
 * built-ins (the workflow sandbox imports this); the SDK is imported for types only.
 */
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';

/** How much effort adaptive thinking may spend (the API's `output_config.effort`). */
export type ThinkingEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** The efforts, weakest first (as the SDK's `OutputConfig.effort` lists them). */
export const THINKING_EFFORTS: readonly ThinkingEffort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/**
 * A conversation's thinking:
 * - `enabled`: extended thinking with a token budget (`thinking: {type: "enabled", budget_tokens}`),
 *   at least {@link MIN_THINKING_BUDGET} and below the conversation's `maxTokens`;
 * - `adaptive`: Claude decides when and how much to think (`thinking: {type: "adaptive"}`), with an
 *   optional effort (`output_config: {effort}`).
 * A conversation without it sends no `thinking` field (the model's default), as before thinking
 * could be set.
 */
export type Thinking = { type: 'enabled'; budgetTokens: number } | { type: 'adaptive'; effort?: ThinkingEffort };

/** The API's smallest `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;

/** `max_tokens` of an adaptive-thinking conversation that sets none: thinking counts toward it. */
export const ADAPTIVE_THINKING_MAX_TOKENS = 16_000;

const USAGE = `expected off, adaptive, adaptive:EFFORT (${THINKING_EFFORTS.join('|')}) or a token budget BUDGET ≥ ${MIN_THINKING_BUDGET}`;

/** Parses `off` (null: no thinking field), `adaptive`, `adaptive:EFFORT` or `BUDGET`; throws with the accepted forms otherwise. */
export function parseThinking(spec: string): Thinking | null {
  const text = spec.trim();
  if (text === 'off') return null;
  if (text === 'adaptive') return { type: 'adaptive' };
  const [kind, effort, ...rest] = text.split(':');
  if (kind === 'adaptive' && rest.length === 0 && (THINKING_EFFORTS as readonly string[]).includes(effort ?? '')) {
    return { type: 'adaptive', effort: effort as ThinkingEffort };
  }
  if (/^\d+$/.test(text)) {
    const budgetTokens = Number(text);
    if (Number.isSafeInteger(budgetTokens) && budgetTokens >= MIN_THINKING_BUDGET) return { type: 'enabled', budgetTokens };
  }
  throw new Error(`invalid thinking "${spec}": ${USAGE}`);
}

/** The setting in the form {@link parseThinking} reads. */
export function formatThinking(thinking: Thinking | null | undefined): string {
  if (!thinking) return 'off';
  return thinking.type === 'enabled' ? String(thinking.budgetTokens) : `adaptive${thinking.effort !== undefined ? `:${thinking.effort}` : ''}`;
}

/**
 * Why `thinking` cannot go out with `max_tokens` = `maxTokens` (it may have come over the wire, as
 * an update's argument), or undefined. The API's rules: a budget of at least 1,024 tokens, and
 * below `max_tokens` (thinking tokens count toward it).
 */
export function thinkingProblem(thinking: Thinking | null | undefined, maxTokens: number): string | undefined {
  if (thinking === null || thinking === undefined) return undefined;
  if (typeof thinking !== 'object') return `invalid thinking ${JSON.stringify(thinking)}: ${USAGE}`;
  if (thinking.type === 'adaptive') {
    const keys = Object.keys(thinking).filter((k) => k !== 'type' && k !== 'effort');
    if (keys.length > 0 || (thinking.effort !== undefined && !THINKING_EFFORTS.includes(thinking.effort))) {
      return `invalid thinking ${JSON.stringify(thinking)}: ${USAGE}`;
    }
    return undefined;
  }
  if (thinking.type !== 'enabled') return `invalid thinking ${JSON.stringify(thinking)}: ${USAGE}`;
  const budget = thinking.budgetTokens;
  if (!Number.isSafeInteger(budget) || budget < MIN_THINKING_BUDGET) {
    return `the thinking budget must be an integer of at least ${MIN_THINKING_BUDGET} tokens, got ${String(budget)}`;
  }
  if (budget >= maxTokens) {
    return `the thinking budget (${budget} tokens) must be less than maxTokens (${maxTokens}): thinking counts toward max_tokens (raise --max-tokens)`;
  }
  return undefined;
}

/** The request fields of `thinking`: `thinking`, and `output_config.effort` for an adaptive effort. */
export function thinkingRequestFields(thinking: Thinking): Pick<MessageCreateParamsBase, 'thinking' | 'output_config'> {
  if (thinking.type === 'enabled') return { thinking: { type: 'enabled', budget_tokens: thinking.budgetTokens } };
  return { thinking: { type: 'adaptive' }, ...(thinking.effort !== undefined ? { output_config: { effort: thinking.effort } } : {}) };
}

/**
 * The beta header that lets a budget (`enabled`) thinking think between tool calls, not only before
 * the first: interleaved thinking. Adaptive thinking interleaves by itself and needs none.
 */
export const INTERLEAVED_THINKING_BETA = 'interleaved-thinking-2025-05-14';

/** The beta headers `thinking` needs in a request with `tools` (none when off or adaptive). */
export function thinkingBetas(thinking: Thinking | undefined, hasTools: boolean): string[] {
  return thinking?.type === 'enabled' && hasTools ? [INTERLEAVED_THINKING_BETA] : [];
}
