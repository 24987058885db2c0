import { bundleWorkflowCode } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { freePort } from '../../src/temporal/free-port';
import { devServerTuningArgs } from '../../src/temporal/server-tuning';
import { workflowBundleOptions } from '../../src/worker/workflow-bundle';
import { PROGRESS_ATTRIBUTES, WAITING_INPUT_ATTRIBUTE } from '../../src/workflows/progress-attributes';

declare global {
  // Lives only in jest's parent process, from global setup to global teardown.
  var __temporalTestEnv: { env: TestWorkflowEnvironment; dir: string } | undefined;
}

/**
 * One real Temporal dev server for the whole run (random ports, SQLite in a temp dir, Web UI on,
 * the conversations' search attributes registered),
 * started from the existing CLI binary — never a download at test time — and one workflow bundle
 * that every suite's workers load. Suites read both from the environment.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.MCP_HOST_TEST_NO_TEMPORAL === '1') return;
  const cli = findTemporalCli();
  if (!cli) {
    throw new Error('No Temporal CLI found. Run `npm run setup` (builds it once), or set TEMPORAL_CLI_PATH.');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-test-'));
  const uiPort = await freePort();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cli.path },
      ip: '127.0.0.1',
      dbFilename: path.join(dir, 'temporal.db'),
      ui: true,
      uiPort,
      searchAttributes: [...PROGRESS_ATTRIBUTES, WAITING_INPUT_ATTRIBUTE],
      log: { format: 'pretty', level: 'error' },
      // As npm start runs it (src/temporal/server-tuning.ts).
      extraArgs: devServerTuningArgs(),
    },
  });
  globalThis.__temporalTestEnv = { env, dir };
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../src/workflows'),
    ...workflowBundleOptions(),
    logger: { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) },
  });
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  fs.writeFileSync(bundlePath, bundle.code);
  process.env.TEMPORAL_TEST_ADDRESS = env.address;
  process.env.TEMPORAL_TEST_UI_PORT = String(uiPort);
  process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE = bundlePath;
  process.env.TEMPORAL_TEST_DIR = dir;
}
