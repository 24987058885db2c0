/**
 * The prebuilt workflow bundle. `npm run build` bundles the compiled workflows once into
 * `dist/workflow-bundle.js`; a worker running compiled code loads that file instead of running
 * webpack at every start (seconds saved on each start and each failover). Code run from source
 * (tests, tsx) has no such file beside it and bundles at start-up as before.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleWorkflowCode, type Logger } from '@temporalio/worker';

/** The bundle's file name, beside the compiled `workflows/` folder. */
export const WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';

/** The workflows module this worker registers (compiled `.js` in dist/, `.ts` when run from source). */
export function workflowsPath(): string {
  return require.resolve('../workflows');
}

/**
 * The prebuilt bundle in dist/, if the build wrote one: compiled, this module is
 * dist/worker/workflow-bundle.js; bundled into `npm start`'s entry point (src/worker/entry-bundles.ts),
 * `__dirname` is dist/ itself.
 */
export function prebuiltWorkflowBundlePath(): string | undefined {
  const dist = fs.existsSync(path.join(__dirname, 'workflows')) ? __dirname : path.resolve(__dirname, '..');
  const file = path.join(dist, WORKFLOW_BUNDLE_FILE);
  return fs.existsSync(file) ? file : undefined;
}

/** A logger that keeps webpack's module list out of the output and lets its errors through. */
const bundlerLogger: Logger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message) => process.stderr.write(`workflow bundle: ${message}\n`),
  error: (message) => process.stderr.write(`workflow bundle: ${message}\n`),
};

/** Set to `full` when bundling, workflows keep their stack traces (see src/workflows/stack-trace-limit.ts). */
export const WORKFLOW_STACK_TRACES_ENV = 'MCP_HOST_WORKFLOW_STACK_TRACES';

/**
 * The modules each workflow sandbox runs once as it boots (the SDK's `preloadModules`): the stack
 * trace limit, unless `MCP_HOST_WORKFLOW_STACK_TRACES=full`. Every bundle of these workflows takes
 * them from here: the prebuilt one, the one a worker run from source makes, the tests' and the benchmark's.
 */
export function workflowPreloadModules(env: NodeJS.ProcessEnv = process.env): string[] {
  const value = env[WORKFLOW_STACK_TRACES_ENV];
  if (value === 'full') return [];
  if (value !== undefined && value !== '') throw new Error(`${WORKFLOW_STACK_TRACES_ENV} must be "full" or unset, not "${value}"`);
  return [require.resolve('../workflows/stack-trace-limit')];
}

/**
 * The workflow interceptor modules every bundle of these workflows carries: Temporal's OpenTelemetry
 * interceptors (src/workflows/tracing-interceptors.ts), whose spans the worker exports or drops.
 */
export function workflowInterceptorModules(): string[] {
  return [require.resolve('../workflows/tracing-interceptors')];
}

/** What every bundle of these workflows is made with: the preloaded modules and the interceptors. */
export function workflowBundleOptions(env: NodeJS.ProcessEnv = process.env): { preloadModules: string[]; workflowInterceptorModules: string[] } {
  return { preloadModules: workflowPreloadModules(env), workflowInterceptorModules: workflowInterceptorModules() };
}

/** Bundles the workflows into `outFile`; returns its size in bytes. */
export async function writeWorkflowBundle(outFile: string, from: string = workflowsPath()): Promise<number> {
  const bundle = await bundleWorkflowCode({ workflowsPath: from, logger: bundlerLogger, ...workflowBundleOptions() });
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, bundle.code);
  return Buffer.byteLength(bundle.code);
}
