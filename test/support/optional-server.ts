/**
 * Tests that need a server from outside this repository (a PyPI package, say) that may not be
 * installed where the tests run.
 */

/** An optional server: its name and the command that installs it. */
export interface OptionalServer {
  name: string;
  install: string;
}

/** What the tests that need the server do: run, or skip or fail, saying why. */
export type OptionalServerPlan = { kind: 'run' } | { kind: 'skip' | 'fail'; reason: string };

/**
 * Decides what the tests that need `server` do, given whether it is installed: run; or, when it is
 * missing, fail in CI (`CI=true`), where every test is meant to run and a silent skip would pass
 * untested code, and skip anywhere else; either way saying how to install it.
 */
export function planOptionalServer(server: OptionalServer, installed: boolean, env: NodeJS.ProcessEnv = process.env): OptionalServerPlan {
  if (installed) return { kind: 'run' };
  const missing = `${server.name} is not installed. Install it with: ${server.install}`;
  return env.CI === 'true' ? { kind: 'fail', reason: `${missing} (CI=true: tests that need it fail instead of skipping)` } : { kind: 'skip', reason: missing };
}

/** A way to declare one test, like jest's `test`. */
export type TestDeclaration = (name: string, fn: jest.ProvidesCallback, timeout?: number) => void;

/**
 * `test` for the tests that need `server`: as it is when the server is installed; otherwise tests
 * that fail with the plan's reason, or are skipped with the reason in their names (and a warning).
 */
export function optionalServerTest(server: OptionalServer, installed: boolean, env: NodeJS.ProcessEnv = process.env): TestDeclaration {
  const plan = planOptionalServer(server, installed, env);
  switch (plan.kind) {
    case 'run':
      return test;
    case 'fail':
      return (name, _fn, timeout) =>
        test(
          name,
          () => {
            throw new Error(plan.reason);
          },
          timeout,
        );
    case 'skip':
      console.warn(`\n!!! SKIPPING the ${server.name} tests: ${plan.reason}\n`);
      return (name, fn, timeout) => test.skip(`${name} [skipped: ${plan.reason}]`, fn, timeout);
    default: {
      const unreachable: never = plan;
      throw new Error(`unhandled plan ${JSON.stringify(unreachable)}`);
    }
  }
}
