import { parseScenarioList } from '../../scripts/conformance/scenario-list';
import { isAcceptable, verdictOf } from '../../scripts/conformance/verdict';

describe('verdictOf', () => {
  test('a scenario that applies must pass; an expected failure must fail', () => {
    expect(verdictOf(true, false)).toBe('PASS');
    expect(verdictOf(false, false)).toBe('FAIL');
    expect(verdictOf(false, true)).toBe('XFAIL');
    expect(verdictOf(true, true)).toBe('XPASS');
  });

  test('CI goes on after PASS and XFAIL only: a failure and a stale expected failure both stop it', () => {
    expect(isAcceptable('PASS')).toBe(true);
    expect(isAcceptable('XFAIL')).toBe(true);
    expect(isAcceptable('FAIL')).toBe(false);
    expect(isAcceptable('XPASS')).toBe(false);
  });
});

describe('parseScenarioList', () => {
  test('reads the names of `conformance list --client`, with or without spec versions', () => {
    const output = [
      'Client scenarios (test against a client):',
      '  - initialize [2025-06-18,2025-11-25]',
      '  - tools_call [2025-06-18,2025-11-25]',
      '  - auth/resource-mismatch [draft]',
      '  - sse-retry',
      '',
    ].join('\n');
    expect(parseScenarioList(output)).toEqual(['initialize', 'tools_call', 'auth/resource-mismatch', 'sse-retry']);
  });

  test('finds nothing in output without scenario lines', () => {
    expect(parseScenarioList('Unknown command\nUsage: conformance [options]')).toEqual([]);
  });
});
