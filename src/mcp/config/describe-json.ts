/**
 * How configuration errors name what they found. Only types are named for values that may be
 * secrets; short scalars are shown only where the caller knows the field is not one.
 */

/** Array.isArray, but narrowing to unknown elements instead of any. */
export function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/** A JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type of a value as a message names it: `an object`, `a string`, `null`… */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}

/** For non-secret fields only: shows short scalars, otherwise the type. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string' && value.length <= 80) return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describeType(value);
}

/** An error's message, or the thrown value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
