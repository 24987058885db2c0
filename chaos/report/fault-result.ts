/**
 * What one fault did, as the report shows it: one row of docs/RELIABILITY.md's table, with the
 * problems (broken invariants) and details behind it.
 */

/** One fault's figures. */
export interface FaultResult {
  /** The scenario file that produced it. */
  scenario: string;
  /** The fault, as the table's first column says it. */
  fault: string;
  runs: number;
  conversations: number;
  /** Conversations whose messages were exactly as planned. */
  exact: number;
  lost: number;
  duplicated: number;
  toolReExecutions: number;
  /** Recovery samples in ms (empty when the fault has no recovery to time). */
  recoveryMs: number[];
  /** Broken invariants; any makes the outcome a failure. */
  problems: string[];
  /** What happened, for the notes under the table. */
  details: string[];
}

/** The outcome column. */
export function outcomeOf(result: FaultResult): 'pass' | 'FAIL' {
  return result.problems.length === 0 && result.lost === 0 && result.duplicated === 0 && result.exact === result.conversations ? 'pass' : 'FAIL';
}

/** An empty result to fill in. */
export function faultResult(scenario: string, fault: string): FaultResult {
  return { scenario, fault, runs: 0, conversations: 0, exact: 0, lost: 0, duplicated: 0, toolReExecutions: 0, recoveryMs: [], problems: [], details: [] };
}
