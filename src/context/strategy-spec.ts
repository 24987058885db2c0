/**
 * Context strategies as short text, for the CLI (`--context last_turns:6`) and the status line.
 * Pure: no Node built-ins.
 */
import type { ContextStrategy } from './context-strategy';

const USAGE = 'expected keep_all, last_turns:N, placeholder_tool_results:N or summarize:N (N ≥ 1 turns)';

/** Parses `keep_all`, `last_turns:N`, `placeholder_tool_results:N` or `summarize:N`; throws with the accepted forms otherwise. */
export function parseContextStrategy(spec: string): ContextStrategy {
  const [kind, count, ...rest] = spec.trim().split(':');
  if (kind === 'keep_all' && count === undefined) return { kind: 'keep_all' };
  const n = count !== undefined && /^\d+$/.test(count) ? Number(count) : NaN;
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
