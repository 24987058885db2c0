/**
 * Context window sizes, by model-name prefix; the guard compares token usage with these.
 * Pure: no Node built-ins (the workflow sandbox imports this).
 */
import { lookupByModel } from './lookup-by-model';

/** The window assumed for a model the table does not name: every Claude 3 and 4 model has at least this. */
export const FALLBACK_CONTEXT_WINDOW = 200_000;

/**
 * Default windows in tokens. Source: platform.claude.com model overviews (read 2026): Claude 4.x
 * models 200K (1M only with a beta header, which this host does not send); the Claude 5 generation
 * 1M. A conversation can override the number (configurable), e.g. for a 1M beta.
 */
export const DEFAULT_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'claude-opus-5': 1_000_000,
  'claude-opus-5-5': 1_000_000,
  'claude-sonnet-5': 1_000_000,
  'claude-sonnet-5-5': 1_000_000,
  'claude-haiku-5-5': 1_000_000,
};

/** The context window of `model` in tokens: from `table`, else {@link FALLBACK_CONTEXT_WINDOW}. */
export function contextWindowOf(model: string, table: Readonly<Record<string, number>> = DEFAULT_CONTEXT_WINDOWS): number {
  return lookupByModel(table, model) ?? FALLBACK_CONTEXT_WINDOW;
}
