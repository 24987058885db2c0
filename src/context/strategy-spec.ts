/**
 * Context strategies as short text, for the CLI (`--context last_turns:6`) and the status line.
 * Pure: no Node built-ins.
 */
import { MIN_COMPACTION_TRIGGER } from './compaction';
import type { ContextStrategy } from './context-strategy';

const USAGE =
  'expected keep_all, last_turns:N, placeholder_tool_results:N, summarize:N (N ≥ 1 turns), ' +
  `compact[:TRIGGER] (TRIGGER ≥ ${MIN_COMPACTION_TRIGGER} input tokens) or clear_tool_uses:N[:TRIGGER] (keep the last N ≥ 1 tool uses)`;

/** A positive whole number written in digits, or NaN. */
function whole(text: string | undefined): number {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : NaN;
}

/** `compact[:TRIGGER]` and `clear_tool_uses:N[:TRIGGER]`: the strategies the API runs on its side. */
function parseServerStrategy(spec: string, kind: string, args: string[]): ContextStrategy {
  const invalid = new Error(`invalid context strategy "${spec}": ${USAGE}`);
  if (kind === 'compact') {
    if (args.length === 0) return { kind: 'compact' };
    const trigger = whole(args[0]);
    if (args.length > 1 || !Number.isSafeInteger(trigger) || trigger < MIN_COMPACTION_TRIGGER) throw invalid;
    return { kind: 'compact', triggerTokens: trigger };
  }
  const keep = whole(args[0]);
  const trigger = args.length > 1 ? whole(args[1]) : undefined;
  if (args.length > 2 || !Number.isSafeInteger(keep) || keep < 1) throw invalid;
  if (trigger !== undefined && (!Number.isSafeInteger(trigger) || trigger < 1)) throw invalid;
  return { kind: 'clear_tool_uses', keepToolUses: keep, ...(trigger !== undefined ? { triggerTokens: trigger } : {}) };
}

/**
 * Parses `keep_all`, `last_turns:N`, `placeholder_tool_results:N`, `summarize:N`, `compact[:TRIGGER]`
 * or `clear_tool_uses:N[:TRIGGER]`; throws with the accepted forms otherwise.
 */
export function parseContextStrategy(spec: string): ContextStrategy {
  const [kind = '', ...args] = spec.trim().split(':');
  if (kind === 'compact' || kind === 'clear_tool_uses') return parseServerStrategy(spec, kind, args);
  const [count, ...rest] = args;
  if (kind === 'keep_all' && count === undefined) return { kind: 'keep_all' };
  const n = whole(count);
  if (rest.length > 0 || !Number.isSafeInteger(n) || n < 1) throw new Error(`invalid context strategy "${spec}": ${USAGE}`);
  switch (kind) {
    case 'last_turns':
      return { kind: 'last_turns', turns: n };
    case 'placeholder_tool_results':
      return { kind: 'placeholder_tool_results', keepRecentTurns: n };
    case 'summarize':
      return { kind: 'summarize', keepRecentTurns: n };
    default:
      throw new Error(`invalid context strategy "${spec}": ${USAGE}`);
  }
}

/** The strategy in the form {@link parseContextStrategy} reads. */
export function formatContextStrategy(strategy: ContextStrategy): string {
  switch (strategy.kind) {
    case 'keep_all':
      return 'keep_all';
    case 'last_turns':
      return `last_turns:${strategy.turns}`;
    case 'placeholder_tool_results':
    case 'summarize':
      return `${strategy.kind}:${strategy.keepRecentTurns}`;
    case 'compact':
      return strategy.triggerTokens !== undefined ? `compact:${strategy.triggerTokens}` : 'compact';
    case 'clear_tool_uses':
      return `clear_tool_uses:${strategy.keepToolUses}${strategy.triggerTokens !== undefined ? `:${strategy.triggerTokens}` : ''}`;
    default: {
      const unknown: never = strategy;
      throw new Error(`unknown context strategy ${JSON.stringify(unknown)}`);
    }
  }
}

/** Why `value` is not a context strategy (it came over the wire: an update's argument), or undefined. */
export function contextStrategyProblem(value: ContextStrategy): string | undefined {
  try {
    const spec = formatContextStrategy(value);
    return JSON.stringify(parseContextStrategy(spec)) === JSON.stringify(value) ? undefined : `invalid context strategy ${JSON.stringify(value)}: ${USAGE}`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
