/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // One real Temporal dev server and one workflow bundle per run, shared by every suite.
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/quiet-runtime.ts'],
  testTimeout: 120000,
  // Suites that start workers and servers share 2 cores; run them in two lanes at most.
  maxWorkers: 2,
};
