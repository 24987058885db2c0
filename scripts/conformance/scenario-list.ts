/**
 * Reads the output of `conformance list --client`: a heading, then one `  - <name> [<spec
 * versions>]` line per client scenario.
 */

const SCENARIO_LINE = /^\s*-\s+(\S+)(?:\s+\[[^\]]*\])?\s*$/;

/** The scenario names in `conformance list --client` output, in the suite's order. */
export function parseScenarioList(output: string): string[] {
  const names: string[] = [];
  for (const line of output.split('\n')) {
    const name = SCENARIO_LINE.exec(line)?.[1];
    if (name !== undefined) names.push(name);
  }
  return names;
}
