/**
 * Looks a model id up in a table keyed by model-name prefix (`claude-sonnet-4`, `claude-opus-4-5`),
 * for the per-model tables beside it (prices, context windows). Pure: no Node built-ins.
 */

/**
 * Whether `key` names `model`: the same id, or the id followed by a date or alias suffix
 * (`claude-sonnet-4-20250514`, `claude-haiku-4-5-latest`). A following minor version is another
 * model: `claude-opus-4` does not name `claude-opus-4-5`, whose price differs.
 */
function names(key: string, model: string): boolean {
  if (model === key) return true;
  // Vertex AI spells the date after an `@`: claude-opus-4-5@20251101.
  if (model.startsWith(`${key}@`)) return true;
  if (!model.startsWith(`${key}-`)) return false;
  const rest = model.slice(key.length + 1);
  return !/^\d{1,2}(?:$|[-@])/.test(rest);
}

/** The value of the longest key that names `model` (see above), or undefined when none does. */
export function lookupByModel<T>(table: Readonly<Record<string, T>>, model: string): T | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (names(key, model) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}
