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
  /** Scenarios run again later into this stored run (`--only` with its label): when, on which build. */
  reruns?: string[];
}

/** Writes `result` as `<dir>/<label>.json`. */
export function storeSuiteResult(dir: string, result: SuiteResult): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${result.label}.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

/**
 * `result` merged into the stored run of the same label, if there is one: the rows of the scenarios
 * `result` ran replace the stored ones, the others stay, and the rerun is noted.
 */
export function mergedSuiteResult(dir: string, result: SuiteResult, scenarios: readonly string[]): SuiteResult {
  const file = path.join(dir, `${result.label}.json`);
  if (!fs.existsSync(file)) return result;
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as SuiteResult;
  const kept = stored.faults.filter((f) => !scenarios.includes(f.scenario));
  const order = (f: FaultResult): number => {
    const i = stored.faults.findIndex((s) => s.scenario === f.scenario);
    return i === -1 ? stored.faults.length : i;
  };
  return {
    ...stored,
    faults: [...kept, ...result.faults].sort((a, b) => order(a) - order(b)),
    reruns: [...(stored.reruns ?? []), `${scenarios.join(', ')} run again ${result.date} on ${result.environment.build}, in ${(result.durationMs / 1000).toFixed(0)} s`],
  };
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
