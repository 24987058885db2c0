/**
 * The delay the Messages API asked for before another attempt: `retry-after-ms` (milliseconds) wins
 * over `retry-after` (seconds, or an HTTP date); undefined when it asked for none.
 */
export function retryDelayMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
