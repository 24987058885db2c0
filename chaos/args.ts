/**
 * `npm run chaos` arguments: one clear line for anything it does not understand.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROFILES, type Profile } from './profiles';

/** What the runner was asked to do. */
export interface ChaosArgs {
  profile: Profile;
  /** Scenario names to run (all when empty). */
  only: string[];
  workerRoot: string | undefined;
  /**
   * Where the run is stored (docs/reliability/<label>.json); undefined: a partial run, not stored.
   * A partial run with a label replaces its scenarios' rows in that stored run, if there is one.
   */
  label: string | undefined;
  /** Only render docs/RELIABILITY.md again from the stored runs. */
  reportOnly: boolean;
}

/** The usage line. */
export const USAGE = 'usage: npm run chaos -- [--profile quick|long] [--only name,name] [--worker-root DIR] [--label NAME] | --report-only';

/** Parses the arguments; throws one line on a bad one. */
export function parseChaosArgs(argv: readonly string[], scenarioNames: readonly string[]): ChaosArgs {
  const values = new Map<string, string>();
  const reportOnly = argv.includes('--report-only');
  if (reportOnly && argv.length > 1) throw new Error(`--report-only takes no other argument; ${USAGE}`);
  for (let i = reportOnly ? argv.length : 0; i < argv.length; i += 2) {
    const flag = argv[i] ?? '';
    const value = argv[i + 1];
    if (!['--profile', '--only', '--worker-root', '--label'].includes(flag)) throw new Error(`unknown argument ${JSON.stringify(flag)}; ${USAGE}`);
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value; ${USAGE}`);
    values.set(flag, value);
  }
  const profileName = values.get('--profile') ?? 'quick';
  if (profileName !== 'quick' && profileName !== 'long') throw new Error(`unknown profile ${JSON.stringify(profileName)}: quick or long`);
  const only = (values.get('--only') ?? '').split(',').filter((name) => name !== '');
  const unknown = only.filter((name) => !scenarioNames.includes(name));
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}: one of ${scenarioNames.join(', ')}`);
  const root = values.get('--worker-root');
  const workerRoot = root !== undefined ? path.resolve(root) : undefined;
  if (workerRoot !== undefined && !fs.existsSync(path.join(workerRoot, 'dist/worker/main.js'))) {
    throw new Error(`--worker-root ${workerRoot} has no dist/worker/main.js: build it there first (npx tsx scripts/build.ts)`);
  }
  // A run of some scenarios only is stored when a label says where; it must not pass for the whole profile.
  const whole = only.length === 0 ? (workerRoot !== undefined ? `${profileName}-${path.basename(workerRoot)}` : profileName) : undefined;
  const label = values.get('--label') ?? whole;
  if (label !== undefined && !/^[\w.-]+$/.test(label)) throw new Error(`--label ${JSON.stringify(label)}: letters, digits, dot, dash and underscore only`);
  return { profile: PROFILES[profileName], only, workerRoot, label, reportOnly };
}
