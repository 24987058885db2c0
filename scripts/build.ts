/**
 * `npm run build`: compiles src/ to dist/ with tsc (declarations for the library API) and bundles
 * the compiled workflows once into dist/workflow-bundle.js, which workers load instead of running
 * webpack at start-up. Then the three programs (dist/main.js of `npm start`, dist/worker/main.js of
 * `npm run worker` and the image, dist/client/cli.js of `mcp-host`) are each replaced in place by
 * one file holding them and everything they load but the Temporal SDK (src/worker/entry-bundles.ts):
 * a new worker polls, and a CLI command answers, sooner. `--if-stale` builds only when src/ changed
 * since the last build.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleEntryPoints } from '../src/worker/entry-bundles';
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
  // What is being built, taken before: a source edited during the build makes the next one stale.
  const digest = inputs.inputsDigest();
  const dist = path.join(inputs.ROOT, 'dist');
  // Built beside, then swapped in: a worker, a CLI command or a test starting meanwhile finds the
  // whole previous dist/, never a half-written one.
  const next = path.join(inputs.ROOT, `dist.building-${process.pid}`);
  fs.rmSync(next, { recursive: true, force: true });
  const tsc = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', path.join(inputs.ROOT, 'tsconfig.build.json'), '--outDir', next],
    { stdio: 'inherit' },
  );
  let bytes: number;
  try {
    if (tsc.status !== 0) throw new Error(`tsc failed (exit ${String(tsc.status)})`);
    bytes = await writeWorkflowBundle(path.join(next, WORKFLOW_BUNDLE_FILE), path.join(next, 'workflows', 'index.js'));
    await bundleEntryPoints(next);
    fs.writeFileSync(path.join(next, path.relative(dist, inputs.STAMP)), `${digest}\n`);
  } catch (err) {
    fs.rmSync(next, { recursive: true, force: true });
    throw err;
  }
  const previous = path.join(inputs.ROOT, `dist.previous-${process.pid}`);
  if (fs.existsSync(dist)) fs.renameSync(dist, previous);
  fs.renameSync(next, dist);
  fs.rmSync(previous, { recursive: true, force: true });
  process.stderr.write(`build: dist/ compiled, ${WORKFLOW_BUNDLE_FILE} ${(bytes / 1024).toFixed(0)} KiB, in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

build().catch((err: unknown) => {
  process.stderr.write(`build: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
