/**
 * The programs' entry points as single files. A process that starts from `dist/worker/main.js` as
 * tsc wrote it loads some 900 modules: Node resolves each (package.json reads, path probes) and
 * compiles each on its own, about half of a new worker's start-up (measured with --cpu-prof). The
 * build replaces each entry point in place by an esbuild bundle of it and of every module it loads,
 * so a worker that replaces a dead one polls sooner, and each `mcp-host` command answers sooner.
 *
 * The Temporal SDK stays outside (`@temporalio/*`): its native module, its workflow thread file and
 * the workflow bundle's runtime are found by path at run time. So does the AWS SDK (`@aws-sdk/*`),
 * loaded only by a process whose payload store is S3 (src/temporal/payload-store/s3-driver.ts),
 * not parsed by every other start. Each bundle sits where its entry point was, so `__dirname` is unchanged (the prebuilt workflow bundle is found from it). The library
 * (`dist/index.js`, `./workflow`, `./testing`) is not bundled: an application loads it with its own
 * copies of shared packages, as it would any library.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The entry points, relative to dist/. */
export const ENTRY_POINTS = ['main.js', 'worker/main.js', 'client/cli.js'] as const;

/** Replaces each entry point under `dist` by a bundle of it; returns the bundles' sizes in bytes. */
export async function bundleEntryPoints(dist: string): Promise<Record<string, number>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a build-time tool, a devDependency
  const esbuild = require('esbuild') as typeof import('esbuild');
  const sizes: Record<string, number> = {};
  for (const entry of ENTRY_POINTS) {
    const file = path.join(dist, entry);
    const bundled = path.join(dist, '.bundling', entry);
    const result = await esbuild.build({
      entryPoints: [file],
      outfile: bundled,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['@temporalio/*', '@aws-sdk/*'],
      // Not minified: a stack trace names the functions and readable lines of the bundle. No source
      // map (about 10 MB per program, in the package too; Node reads none without --enable-source-maps).
      sourcemap: false,
      logLevel: 'silent',
      // `require.resolve('../workflows')` (workflow-bundle.ts) is only reached when no prebuilt
      // bundle exists, never beside a build: not worth a warning on every build.
      logOverride: { 'require-resolve-not-external': 'silent' },
    });
    if (result.errors.length > 0) throw new Error(`bundling ${entry}: ${result.errors.map((e) => e.text).join('; ')}`);
    fs.renameSync(bundled, file);
    // tsc's map was of the file replaced.
    fs.rmSync(`${file}.map`, { force: true });
    sizes[entry] = fs.statSync(file).size;
  }
  fs.rmSync(path.join(dist, '.bundling'), { recursive: true, force: true });
  return sizes;
}
