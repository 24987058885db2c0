/** What a benchmark run measures, from the environment. */
export interface BenchSettings {
  /** Model calls per turn, one table row each (`BENCH_SIZES=50,100`); at least 2, so a tool runs. */
  sizes: number[];
  /** Repetitions of each measurement; the table shows the median (`BENCH_REPEAT=3`). */
  repeat: number;
}

const DEFAULT_SIZES = [50, 100, 200, 400];
const DEFAULT_REPEAT = 3;

function integerAtLeast(min: number, name: string, raw: string): number {
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min) throw new Error(`${name}: ${JSON.stringify(raw)} is not an integer of at least ${min}`);
  return value;
}

/** Reads `BENCH_SIZES` and `BENCH_REPEAT`, with the documented defaults. */
export function benchSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const sizes = env.BENCH_SIZES?.trim()
    ? env.BENCH_SIZES.split(',').map((raw) => integerAtLeast(2, 'BENCH_SIZES', raw))
    : DEFAULT_SIZES;
  const repeat = env.BENCH_REPEAT?.trim() ? integerAtLeast(1, 'BENCH_REPEAT', env.BENCH_REPEAT) : DEFAULT_REPEAT;
  return { sizes: [...new Set(sizes)].sort((a, b) => a - b), repeat };
}
