import type { RunOutcome } from './run-outcome';

/**
 * The repetition whose history size is the median: one real run, so its bytes, events and outcome
 * belong together (for an even count, the lower of the two middle runs).
 */
export function medianRun(runs: readonly RunOutcome[]): RunOutcome {
  const sorted = [...runs].sort((a, b) => a.bytes - b.bytes);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error('no runs to take the median of');
  return median;
}
