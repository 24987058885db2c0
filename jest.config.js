/**
 * Two projects: `unit` (no Temporal server; tests mirror src/) and `integration` (suites that need
 * the real dev server: test/integration/, or a file named *.integration.test.ts). Only the
 * integration project has the global setup, and jest runs a project's global setup only when at
 * least one of its suites is selected, so `jest test/mcp` starts no Temporal. `npm test` runs both;
 * `npm run test:unit` sets MCP_HOST_TEST_NO_TEMPORAL=1, which leaves the integration project out.
 *
 * @type {import('jest').Config}
 */

/** Suites that need the run's Temporal dev server. */
const INTEGRATION = ['<rootDir>/test/integration/', '\\.integration\\.test\\.ts$'];

/** Never collected by either project. */
const IGNORED = [
  '/node_modules/',
  // test/cluster starts its own Postgres-backed cluster: `npm run test:cluster` only, never `npm test`.
  ...(process.env.MCP_HOST_TEST_CLUSTER === '1' ? [] : ['<rootDir>/test/cluster/']),
];

/** What both projects share. */
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  setupFiles: ['<rootDir>/test/setup/quiet-runtime.ts'],
};

const unit = {
  ...shared,
  displayName: 'unit',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [...IGNORED, ...INTEGRATION],
};

const integration = {
  ...shared,
  displayName: 'integration',
  roots: ['<rootDir>/test'],
  testMatch: ['<rootDir>/test/integration/**/*.test.ts', '**/*.integration.test.ts'],
  testPathIgnorePatterns: IGNORED,
  // One real Temporal dev server and one workflow bundle per run, shared by every suite.
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
};

module.exports = {
  projects: process.env.MCP_HOST_TEST_NO_TEMPORAL === '1' ? [unit] : [unit, integration],
  testTimeout: 120000,
  // Suites that start workers and servers share 2 cores; run them in two lanes at most.
  maxWorkers: 2,
};
