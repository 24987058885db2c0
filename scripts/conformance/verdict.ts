/**
 * What one conformance scenario's outcome means for CI, given whether it is listed as an expected
 * failure. The rules are the suite's own baseline rules (`--expected-failures`), kept here so the
 * runner can print every scenario with its reason.
 */

/**
 * - `PASS`: applies to the host and passed.
 * - `FAIL`: applies to the host and failed: a conformance bug.
 * - `XFAIL`: listed as an expected failure and failed, as listed.
 * - `XPASS`: listed as an expected failure but passed: the listing is stale and must be removed.
 */
export type Verdict = 'PASS' | 'FAIL' | 'XFAIL' | 'XPASS';

/** The verdict for a scenario that `passed` (or not), listed as an expected failure (or not). */
export function verdictOf(passed: boolean, expectedToFail: boolean): Verdict {
  if (expectedToFail) return passed ? 'XPASS' : 'XFAIL';
  return passed ? 'PASS' : 'FAIL';
}

/** Whether CI may go on after this verdict. */
export function isAcceptable(verdict: Verdict): boolean {
  return verdict === 'PASS' || verdict === 'XFAIL';
}
