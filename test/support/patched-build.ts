/**
 * Another version of this code, built for real: the build's inputs (src/, scripts/, bin/, the
 * package and TypeScript files) copied to a folder, a patch applied there, and `scripts/build.ts`
 * run in the copy, which then has its own dist/ (workers, CLI, workflow bundle). node_modules is
 * a link to this repo's. The rolling-upgrade test (test/cluster/rolling-upgrade.test.ts) runs its
 * version B from such a copy, so B's workers run a workflow bundle compiled from different source,
 * not a flag both versions share.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './repo';

const run = promisify(execFile);

/** What `scripts/build.ts` reads, beside node_modules. */
const BUILD_INPUTS = ['src', 'scripts', 'bin', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

/**
 * Copies the build's inputs of `root` into `dir`, applies `patchFile` (a `git diff` of this repo,
 * applied with `git apply`, which fails on a patch that does not fit), builds the copy, and returns
 * the copy's root, for `spawnWorkerProcess({ root })`.
 */
export async function buildPatchedCopy(patchFile: string, dir: string, root: string = REPO_ROOT): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  for (const input of BUILD_INPUTS) fs.cpSync(path.join(root, input), path.join(dir, input), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
  await run('git', ['apply', '--whitespace=nowarn', path.resolve(patchFile)], { cwd: dir });
  try {
    await run(process.execPath, ['--import', 'tsx', path.join(dir, 'scripts', 'build.ts')], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`the patched copy in ${dir} did not build: ${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
  return dir;
}
