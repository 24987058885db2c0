/**
 * Reads the output of `conformance list --client`: a heading, then one `  - <name> [<spec
 * versions>]` line per client scenario.
 */

const SCENARIO_LINE = /^\s*-\s+(\S+)(?:\s+\[([^\]]*)\])?\s*$/;

/** A client scenario as the suite lists it: its name and the spec versions it is tagged for. */
export interface ListedScenario {
  name: string;
  /** As listed (`2025-11-25`, `2026-07-28`, `extension`, …); empty when the line names none. */
  specVersions: string[];
}

/** The client scenarios in `conformance list --client` output, in the suite's order. */
export function parseScenarioList(output: string): ListedScenario[] {
  const scenarios: ListedScenario[] = [];
  for (const line of output.split('\n')) {
    const match = SCENARIO_LINE.exec(line);
    const name = match?.[1];
    if (name === undefined) continue;
    const versions = (match?.[2] ?? '').split(',').map((version) => version.trim()).filter((version) => version !== '');
    scenarios.push({ name, specVersions: versions });
  }
  return scenarios;
}
