// ESLint: typed rules everywhere, the workflow sandbox rule, and which layer of src/ may import which.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** src/testing is the package's `testing` export (test doubles): tests import it, product code never does. */
const noTestDoubles = {
  regex: '^(\\.{1,2}/)+testing(/|$)',
  message: 'Only tests import src/testing (the testing export); product code never does.',
};

/**
 * Lower layers never import higher ones. For each lower folder of src/, the folders it may not
 * import from; `import type` included, so a type cannot drag a cycle in either.
 */
const higherLayers = {
  errors: ['activities', 'claude', 'client', 'context', 'conversation', 'mcp', 'models', 'offline', 'worker', 'workflows'],
  models: ['activities', 'claude', 'client', 'context', 'conversation', 'errors', 'mcp', 'offline', 'worker', 'workflows'],
  claude: ['activities', 'client', 'context', 'conversation', 'mcp', 'offline', 'worker', 'workflows'],
  context: ['activities', 'client', 'conversation', 'mcp', 'offline', 'worker', 'workflows'],
  conversation: ['activities', 'client', 'mcp', 'offline', 'worker', 'workflows'],
  mcp: ['activities', 'client', 'offline', 'worker', 'workflows'],
  approval: ['activities', 'claude', 'client', 'context', 'conversation', 'errors', 'mcp', 'models', 'offline', 'worker', 'workflows'],
};
const layerPatterns = (folder) =>
  higherLayers[folder]
    ? [{ regex: `^(\\.{1,2}/)+(${higherLayers[folder].join('|')})(/|$)`, message: `src/${folder} is a lower layer: it does not import ${higherLayers[folder].join(', ')}.` }]
    : [];

/** Workflow code runs in Temporal's deterministic sandbox: what it may not import. */
const sandboxRule = (folder) => [
  'error',
  {
    paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code may not use Node built-ins (sandbox, determinism).' })),
    patterns: [
      {
        group: ['**/activities', '**/activities/*', '!**/activities/types', '**/mcp/*', '**/claude/*', '**/client/*', '**/worker/*', '@anthropic-ai/sdk', '@modelcontextprotocol/*', '@temporalio/activity', '@temporalio/client', '@temporalio/worker'],
        allowTypeImports: true,
        message: 'Workflow code imports only @temporalio/workflow, pure shared modules and types.',
      },
      noTestDoubles,
      ...layerPatterns(folder),
    ],
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.temporal/', 'coverage/', 'bin/', '*.config.js', '*.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/explicit-module-boundary-types': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/testing/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noTestDoubles] }] },
  },
  ...['errors', 'claude', 'mcp'].map((folder) => ({
    files: [`src/${folder}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [noTestDoubles, ...layerPatterns(folder)] }] },
  })),
  // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no activity
  // implementations (type imports are erased and allowed), nothing with I/O.
  ...['workflows', 'conversation', 'context', 'models', 'approval'].map((folder) => ({
    files: [`src/${folder}/**/*.ts`],
    rules: { 'no-restricted-imports': sandboxRule(folder) },
  })),
  {
    // Plain CommonJS launch/build helpers (run before anything is compiled): no type information.
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'commonjs',
      parserOptions: { projectService: false, project: null },
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // expect.any(...) and friends are typed any by jest.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);
