/**
 * The context guard: after each Claude reply, decides from the reported usage whether the next
 * request risks the context window, before the API has to refuse it. Pure and deterministic (the
 * workflow calls it).
 */
import type { ReplyUsage } from '../claude/reply-usage';
import type { ContextStrategy } from './context-strategy';
import { canEscalate } from './escalate-strategy';

/** Fraction of the context window at which the guard compacts. */
export const DEFAULT_COMPACTION_THRESHOLD = 0.8;

/**
 * The size of the prompt a reply was given. With prompt caching, `input_tokens` counts only the
 * tokens after the last cache breakpoint; the cached prefix is reported apart, so all three add up
 * to what occupied the context window.
 */
export function promptTokensOf(usage: ReplyUsage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** What the guard reads. */
export interface CompactionInput {
  /** The last prompt's size: {@link promptTokensOf} of the last reply's usage. */
  lastInputTokens: number;
  /** The last reply's `output_tokens`: it joins the next prompt as the assistant message. */
  lastOutputTokens?: number;
  /** An estimate of what else joined the prompt since (tool results; `estimateTokens` in prompt-too-long.ts). */
  pendingTokens?: number;
  /** The model's window ({@link contextWindowOf} or a configured value). */
  contextWindow: number;
  /** Fraction of the window at which to act; default {@link DEFAULT_COMPACTION_THRESHOLD}. */
  threshold?: number;
  /** The strategy in force: when nothing stronger exists, compacting is pointless. */
  strategy: ContextStrategy;
}

/**
 * `compact` when the next prompt (last prompt + last reply) reaches `threshold` of the window and
 * a stronger strategy exists ({@link escalate}); otherwise `none`. Call it once per reply: the
 * usage it reads describes the request before any compaction.
 */
export function decideCompaction(input: CompactionInput): 'none' | 'compact' {
  const threshold = input.threshold ?? DEFAULT_COMPACTION_THRESHOLD;
  const next = input.lastInputTokens + (input.lastOutputTokens ?? 0) + (input.pendingTokens ?? 0);
  if (next < threshold * input.contextWindow) return 'none';
  return canEscalate(input.strategy) ? 'compact' : 'none';
}
