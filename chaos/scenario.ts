/**
 * The contract between the runner and a scenario: the runner owns the Temporal dev server and the
 * profile; a scenario breaks something and returns one result per fault it tried.
 */
import type { Profile } from './profiles';
import type { FaultResult } from './report/fault-result';
import type { ChaosTemporal } from './support/chaos-temporal';

/** What every scenario gets. */
export interface ScenarioContext {
  profile: Profile;
  /** The build under test: a copy, made at the start of the run, of a tree's dist/ (this repo's unless --worker-root). */
  workerRoot: string;
  temporal: ChaosTemporal;
  /** The run's directory; each scenario makes its own folder in it. */
  dir: string;
  log(line: string): void;
}

/** One scenario file's export. */
export interface ChaosScenario {
  /** Its file's name, for `--only` and the results' `scenario`. */
  name: string;
  run(context: ScenarioContext): Promise<FaultResult[]>;
}
