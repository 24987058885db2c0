/**
 * A copy of the build under test (`dist/`, `bin/`, `package.json`, with `node_modules` linked) in
 * the run's directory. Others may rebuild the tree while the suite runs (a build deletes `dist/`
 * first), and the suite starts new worker and CLI processes all along: they must all run the build
 * the run set out to measure.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Copies the build of `root` into `dir` and returns the copy's root. */
export function snapshotBuild(root: string, dir: string): string {
  const copy = path.join(dir, 'build');
  for (const needed of ['dist/worker/main.js', 'dist/index.js', 'dist/workflow-bundle.js', 'bin/mcp-host.js']) {
    if (!fs.existsSync(path.join(root, needed))) throw new Error(`${root} has no ${needed}: build it first (npx tsx scripts/build.ts)`);
  }
  fs.mkdirSync(copy, { recursive: true });
  for (const part of ['dist', 'bin', 'package.json']) fs.cpSync(path.join(root, part), path.join(copy, part), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(copy, 'node_modules'));
  return copy;
}
