import { rowsNamed, scenarioRows } from '../../scripts/conformance/scenario-rows';

const LISTED = [
  { name: 'initialize', specVersions: ['2025-06-18', '2025-11-25'] },
  { name: 'tools_call', specVersions: ['2025-06-18', '2025-11-25', '2026-07-28'] },
  { name: 'request-metadata', specVersions: ['2026-07-28'] },
  { name: 'auth/dpop', specVersions: ['extension'] },
];

describe('scenarioRows', () => {
  test('a scenario tagged for 2025-11-25 and 2026-07-28 gets a second row on the 2026 wire; the others one row', () => {
    expect(scenarioRows(LISTED)).toEqual([
      { id: 'initialize', scenario: 'initialize' },
      { id: 'tools_call', scenario: 'tools_call' },
      { id: 'tools_call@2026-07-28', scenario: 'tools_call', specVersion: '2026-07-28' },
      { id: 'request-metadata', scenario: 'request-metadata' },
      { id: 'auth/dpop', scenario: 'auth/dpop' },
    ]);
  });
});

describe('rowsNamed', () => {
  const rows = scenarioRows(LISTED);

  test('a scenario name selects both of its rows; a row id that row only', () => {
    expect(rowsNamed(rows, 'tools_call').map((row) => row.id)).toEqual(['tools_call', 'tools_call@2026-07-28']);
    expect(rowsNamed(rows, 'tools_call@2026-07-28').map((row) => row.id)).toEqual(['tools_call@2026-07-28']);
    expect(rowsNamed(rows, 'initialize@2026-07-28')).toEqual([]);
    expect(rowsNamed(rows, 'nope')).toEqual([]);
  });
});
