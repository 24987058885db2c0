/**
 * `npm run build`: compiles src/ to dist/ with tsc (declarations for the library API) and bundles
 * the compiled workflows once into dist/workflow-bundle.js, which workers load instead of running
 * webpack at start-up. `--if-stale` builds only when src/ changed since the last build.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WORKFLOW_BUNDLE_FILE, writeWorkflowBundle } from '../src/worker/workflow-bundle';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const inputs = require('./build-inputs.cjs') as { ROOT: string; STAMP: string; inputsDigest(): string; staleReason(): string | undefined };

async function build(): Promise<void> {
  if (process.argv.includes('--if-stale')) {
    const reason = inputs.staleReason();
    if (reason === undefined) return;
    process.stderr.write(`build: ${reason}\n`);
  }
  const started = Date.now();
  const dist = path.join(inputs.ROOT, 'dist');
  fs.rmSync(dist, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(inputs.ROOT, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (tsc.status !== 0) throw new Error(`tsc failed (exit ${String(tsc.status)})`);
  const bytes = await writeWorkflowBundle(path.join(dist, WORKFLOW_BUNDLE_FILE), path.join(dist, 'workflows', 'index.js'));
  fs.writeFileSync(inputs.STAMP, `${inputs.inputsDigest()}\n`);
  process.stderr.write(`build: dist/ compiled, ${WORKFLOW_BUNDLE_FILE} ${(bytes / 1024).toFixed(0)} KiB, in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

build().catch((err: unknown) => {
  process.stderr.write(`build: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
