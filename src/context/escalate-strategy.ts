/**
 * The next, stronger context strategy: used when the context guard trips or Claude stops with
 * `model_context_window_exceeded`. Each step sends no more than the step before. Pure.
 */
import { DEFAULT_COMPACTION_TRIGGER, MIN_COMPACTION_TRIGGER } from './compaction';
import { DEFAULT_CLEAR_TRIGGER } from './context-editing';
import type { ContextStrategy } from './context-strategy';
import { turnCount } from './turn-boundaries';

/** Turns kept verbatim once the guard has had to step in. */
const ESCALATED_KEEP = 2;
/** The lowest trigger the guard sets for clearing tool uses (input tokens). */
const MIN_CLEAR_TRIGGER = 10_000;

/** The server-side strategies step by halving: compact's trigger, then clear's kept tool uses, then its trigger. */
function escalateOnServer(strategy: Extract<ContextStrategy, { kind: 'compact' | 'clear_tool_uses' }>): ContextStrategy {
  if (strategy.kind === 'compact') {
    const trigger = strategy.triggerTokens ?? DEFAULT_COMPACTION_TRIGGER;
    return { kind: 'compact', triggerTokens: Math.min(trigger, Math.max(MIN_COMPACTION_TRIGGER, Math.floor(trigger / 2))) };
  }
  const keep = turnCount(strategy.keepToolUses);
  const trigger = strategy.triggerTokens ?? DEFAULT_CLEAR_TRIGGER;
  if (keep > 1) return { ...strategy, keepToolUses: Math.floor(keep / 2) };
  return { kind: 'clear_tool_uses', keepToolUses: 1, triggerTokens: Math.min(trigger, Math.max(MIN_CLEAR_TRIGGER, Math.floor(trigger / 2))) };
}

/**
 * keep_all → placeholder_tool_results(2) → last_turns(2) → last_turns(1). A placeholder window
 * wider than 2 narrows to 2 first; last_turns(N) halves N. `summarize(K)` halves K down to 1 (the
 * workflow then writes a new summary, forced). `last_turns(1)` and `summarize(1)` are fixed points:
 * nothing stronger keeps the current turn, which a request cannot do without.
 */
export function escalate(strategy: ContextStrategy): ContextStrategy {
  switch (strategy.kind) {
    case 'keep_all':
      return { kind: 'placeholder_tool_results', keepRecentTurns: ESCALATED_KEEP };
    case 'placeholder_tool_results': {
      const keep = turnCount(strategy.keepRecentTurns);
      return keep > ESCALATED_KEEP
        ? { kind: 'placeholder_tool_results', keepRecentTurns: ESCALATED_KEEP }
        : { kind: 'last_turns', turns: keep };
    }
    case 'last_turns':
      return { kind: 'last_turns', turns: Math.max(1, Math.floor(turnCount(strategy.turns) / 2)) };
    case 'summarize':
      return { kind: 'summarize', keepRecentTurns: Math.max(1, Math.floor(turnCount(strategy.keepRecentTurns) / 2)) };
    case 'compact':
    case 'clear_tool_uses':
      return escalateOnServer(strategy);
    default: {
      const unknown: never = strategy;
      throw new Error(`unknown context strategy ${JSON.stringify(unknown)}`);
    }
  }
}

/** Whether {@link escalate} can still shrink what `strategy` sends (summarize can always re-summarise). */
export function canEscalate(strategy: ContextStrategy): boolean {
  return strategy.kind === 'summarize' || JSON.stringify(escalate(strategy)) !== JSON.stringify(strategy);
}
