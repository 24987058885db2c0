import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseExpectedFailures } from '../../scripts/conformance/expected-failures';

const FILE = join(__dirname, '..', '..', 'scripts', 'conformance', 'expected-failures.json');

describe('parseExpectedFailures', () => {
  test('maps every listed scenario to its group’s reason and run setting', () => {
    const failures = parseExpectedFailures({
      groups: [
        { reason: 'no elicitation', scenarios: ['elicit'] },
        { reason: 'no OAuth', runByDefault: false, scenarios: ['auth/a', 'auth/b'] },
      ],
    });
    expect([...failures]).toEqual([
      ['elicit', { reason: 'no elicitation', runByDefault: true }],
      ['auth/a', { reason: 'no OAuth', runByDefault: false }],
      ['auth/b', { reason: 'no OAuth', runByDefault: false }],
    ]);
  });

  test.each([
    ['not an object', []],
    ['no groups', {}],
    ['a group without a reason', { groups: [{ scenarios: ['x'] }] }],
    ['a blank reason', { groups: [{ reason: '  ', scenarios: ['x'] }] }],
    ['no scenarios', { groups: [{ reason: 'r', scenarios: [] }] }],
    ['a scenario that is not a name', { groups: [{ reason: 'r', scenarios: [3] }] }],
    ['runByDefault not a boolean', { groups: [{ reason: 'r', runByDefault: 'no', scenarios: ['x'] }] }],
    ['a scenario listed twice', { groups: [{ reason: 'r', scenarios: ['x'] }, { reason: 's', scenarios: ['x'] }] }],
  ])('rejects %s', (_what, json) => {
    expect(() => parseExpectedFailures(json)).toThrow(/expected-failures/);
  });

  test('the repository’s list parses, and gives the tools-host scenarios no expected failure', () => {
    const failures = parseExpectedFailures(JSON.parse(readFileSync(FILE, 'utf8')));
    expect(failures.size).toBeGreaterThan(0);
    for (const scenario of ['initialize', 'tools_call', 'tools_call@2026-07-28', 'sse-retry', 'http-custom-headers', 'json-schema-2020-12-preservation@2026-07-28']) {
      expect(failures.has(scenario)).toBe(false);
    }
    // The authorization-code, client-credentials and JWT-bearer flows are implemented (docs/oauth.md), on both wires.
    for (const scenario of ['auth/metadata-default', 'auth/basic-cimd@2026-07-28', 'auth/scope-step-up@2026-07-28', 'auth/authorization-server-migration', 'auth/client-credentials-jwt', 'auth/wif-jwt-bearer']) {
      expect(failures.has(scenario)).toBe(false);
    }
    // Only extensions' grants stay listed.
    expect([...failures.keys()].filter((name) => name.startsWith('auth/')).sort()).toEqual([
      'auth/dpop',
      'auth/dpop-nonce',
      'auth/enterprise-managed-authorization',
    ]);
  });
});
