/**
 * The two strategies the API runs on its side, as request fields: `compact` (the `compact_20260112`
 * edit, src/context/compaction.ts) and `clear_tool_uses` (the `clear_tool_uses_20250919` edit: once
 * the input reaches the trigger, the oldest tool results are cleared on the server, keeping the
 * last N tool uses). Both are beta features: their header goes out only with them. The workflow's
 * history is never edited either way. Pure: no Node built-ins (the workflow sandbox imports this).
 */
import { COMPACTION_BETA } from './compaction';
import type { ContextStrategy } from './context-strategy';

/** The beta header that context editing (clearing tool uses) needs. */
export const CONTEXT_EDITING_BETA = 'context-management-2025-06-27';
/** The API's trigger for clearing tool uses when none is given (input tokens). */
export const DEFAULT_CLEAR_TRIGGER = 100_000;

/** A context edit as the request's `context_management.edits` takes it. */
export type ContextEdit =
  | { type: 'compact_20260112'; trigger?: { type: 'input_tokens'; value: number } }
  | {
      type: 'clear_tool_uses_20250919';
      trigger?: { type: 'input_tokens'; value: number };
      keep: { type: 'tool_uses'; value: number };
    };

/** What a server-side strategy adds to a request: its beta header and its edit. */
export interface ServerContextFields {
  betas: string[];
  context_management: { edits: ContextEdit[] };
}

/** The request fields of `strategy`, or undefined for the strategies the host runs itself. */
export function serverContextFields(strategy: ContextStrategy): ServerContextFields | undefined {
  switch (strategy.kind) {
    case 'compact': {
      const edit: ContextEdit = {
        type: 'compact_20260112',
        ...(strategy.triggerTokens !== undefined ? { trigger: { type: 'input_tokens', value: strategy.triggerTokens } } : {}),
      };
      return { betas: [COMPACTION_BETA], context_management: { edits: [edit] } };
    }
    case 'clear_tool_uses': {
      const edit: ContextEdit = {
        type: 'clear_tool_uses_20250919',
        ...(strategy.triggerTokens !== undefined ? { trigger: { type: 'input_tokens', value: strategy.triggerTokens } } : {}),
        keep: { type: 'tool_uses', value: strategy.keepToolUses },
      };
      return { betas: [CONTEXT_EDITING_BETA], context_management: { edits: [edit] } };
    }
    default:
      return undefined;
  }
}
