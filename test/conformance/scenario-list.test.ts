import { parseScenarioList } from '../../scripts/conformance/scenario-list';

describe('parseScenarioList', () => {
  test('reads the names of `conformance list --client` and their spec versions, when listed', () => {
    const output = [
      'Client scenarios (test against a client):',
      '  - initialize [2025-06-18,2025-11-25]',
      '  - tools_call [2025-06-18,2025-11-25,2026-07-28]',
      '  - auth/dpop [extension]',
      '  - sse-retry',
      '',
    ].join('\n');
    expect(parseScenarioList(output)).toEqual([
      { name: 'initialize', specVersions: ['2025-06-18', '2025-11-25'] },
      { name: 'tools_call', specVersions: ['2025-06-18', '2025-11-25', '2026-07-28'] },
      { name: 'auth/dpop', specVersions: ['extension'] },
      { name: 'sse-retry', specVersions: [] },
    ]);
  });

  test('finds nothing in output without scenario lines', () => {
    expect(parseScenarioList('Unknown command\nUsage: conformance [options]')).toEqual([]);
  });
});
