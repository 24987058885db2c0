/**
 * Optional servers: run when installed; when missing, a CI run fails (a suite that silently skips
 * proves nothing there) and names the install command, and a local run skips, saying why.
 */
import { planOptionalServer, type OptionalServer } from './optional-server';

const TIME: OptionalServer = { name: 'mcp-server-time', install: 'python3 -m pip install mcp-server-time' };

describe('planOptionalServer', () => {
  test('installed: the tests run, in CI or not', () => {
    expect(planOptionalServer(TIME, true, { CI: 'true' })).toEqual({ kind: 'run' });
    expect(planOptionalServer(TIME, true, {})).toEqual({ kind: 'run' });
  });

  test('missing in CI (CI=true): the tests fail, naming the server and the install command', () => {
    const plan = planOptionalServer(TIME, false, { CI: 'true' });
    expect(plan.kind).toBe('fail');
    expect(plan).toMatchObject({ reason: expect.stringContaining('mcp-server-time') });
    expect(plan).toMatchObject({ reason: expect.stringContaining('python3 -m pip install mcp-server-time') });
  });

  test('missing elsewhere: the tests are skipped with the reason and the install command', () => {
    for (const env of [{}, { CI: 'false' }, { CI: '' }]) {
      expect(planOptionalServer(TIME, false, env)).toEqual({
        kind: 'skip',
        reason: 'mcp-server-time is not installed. Install it with: python3 -m pip install mcp-server-time',
      });
    }
  });
});
