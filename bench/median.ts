/** The median of some measurements (for an even count, the mean of the two middle ones). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('no values to take the median of');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
