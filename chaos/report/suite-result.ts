/**
 * One run of the suite as stored in docs/reliability/<label>.json: the report is rendered from
 * every stored run (the latest quick and long profiles, and baselines of older builds), so no
 * figure in it is ever typed by hand.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FaultResult } from './fault-result';
import type { RunEnvironment } from './run-environment';

/** A stored run. */
export interface SuiteResult {
  /** The file name: the profile, or e.g. `quick-before` for a baseline of another build. */
  label: string;
  profile: string;
  date: string;
  environment: RunEnvironment;
  loadAverage: { start: string; end: string };
  durationMs: number;
  faults: FaultResult[];
}

/** Writes `result` as `<dir>/<label>.json`. */
export function storeSuiteResult(dir: string, result: SuiteResult): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${result.label}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

/** Every stored run: the quick profile first, then long, then the rest by label. */
export function storedSuiteResults(dir: string): SuiteResult[] {
  if (!fs.existsSync(dir)) return [];
  const rank = (label: string): string => (label === 'quick' ? '0' : label === 'long' ? '1' : `2${label}`);
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as SuiteResult)
    .sort((a, b) => (rank(a.label) < rank(b.label) ? -1 : 1));
}
