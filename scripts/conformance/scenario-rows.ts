/**
 * The rows a conformance run has: one per client scenario, plus a second one on the 2026-07-28
 * wire for each scenario tagged for both 2025-11-25 and 2026-07-28.
 *
 * The suite runs such a scenario on the 2025 wire (a sessionful server with `initialize`) unless
 * `--spec-version 2026-07-28` is passed, and its requirements file asks for it to be run once per
 * wire. The host speaks both eras, chosen per server, so each wire is a row of its own, named
 * `<scenario>@2026-07-28`, which `expected-failures.json` and the command line can name apart.
 * Scenarios tagged for 2026-07-28 only run on that wire by default: no second row.
 */
import type { ListedScenario } from './scenario-list';

/** The wire a second row runs on. */
export const SECOND_WIRE = '2026-07-28';
/** A scenario gets a second row when it is tagged for this revision as well as {@link SECOND_WIRE}. */
const FIRST_WIRE = '2025-11-25';

/** One run of a scenario. */
export interface ScenarioRow {
  /** The row's name: the scenario's, with `@2026-07-28` for the second wire. */
  id: string;
  scenario: string;
  /** Passed as `--spec-version`; undefined: the suite's default wire for the scenario. */
  specVersion?: string;
}

/** Every row of `listed`, in the suite's order, each scenario's second-wire row right after its first. */
export function scenarioRows(listed: readonly ListedScenario[]): ScenarioRow[] {
  return listed.flatMap(({ name, specVersions }) => {
    const first: ScenarioRow = { id: name, scenario: name };
    const both = specVersions.includes(FIRST_WIRE) && specVersions.includes(SECOND_WIRE);
    return both ? [first, { id: `${name}@${SECOND_WIRE}`, scenario: name, specVersion: SECOND_WIRE }] : [first];
  });
}

/**
 * The rows a command-line name selects: a row id selects that row; a bare scenario name selects
 * every row of that scenario (both wires).
 */
export function rowsNamed(rows: readonly ScenarioRow[], name: string): ScenarioRow[] {
  return rows.filter((row) => row.id === name || row.scenario === name);
}
