/**
 * Another version of this code's workflows, compiled for real: this repo's build (dist/, bin/,
 * package.json; node_modules a link) copied to a folder with src/, a patch applied to the copy's
 * src/workflows/, the patched files compiled into the copy's dist/, and the copy's own
 * dist/workflow-bundle.js bundled again from them, in the copy. Workers started from the copy
 * (`spawnWorkerProcess({ root })`) run that bundle: a workflow compiled from other source, not a
 * flag both versions share. The rolling-upgrade test (test/cluster/rolling-upgrade.test.ts) runs
 * its version B so.
 *
 * Only workflow files may change: the worker's entry bundle (dist/worker/main.js) is the copied
 * one, and a change outside src/workflows/ would need the whole build (`scripts/build.ts`, a minute
 * or more on a loaded 2-core machine, against seconds for this).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { WORKFLOW_BUNDLE_FILE } from '../../src/worker/workflow-bundle';
import { REPO_ROOT } from './repo';

const run = promisify(execFile);

/** The files a `git diff` patch changes, as repo paths. */
async function patchedFiles(patchFile: string, cwd: string): Promise<string[]> {
  const { stdout } = await run('git', ['apply', '--numstat', patchFile], { cwd });
  return stdout.split('\n').filter((line) => line.trim() !== '').map((line) => line.split('\t')[2] ?? '');
}

/** The compiler options of `npm run build` (tsconfig.build.json). */
function buildCompilerOptions(root: string): ts.CompilerOptions {
  const file = path.join(root, 'tsconfig.build.json');
  const read = ts.readConfigFile(file, (f) => ts.sys.readFile(f));
  if (read.error) throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root).options;
}

/**
 * Copies the build of `root` (which must be built: `npx tsx scripts/build.ts`) and its src/ into
 * `dir`, applies `patchFile` (a `git diff` of this repo, applied with `git apply`, which fails on a
 * patch that does not fit) to the copy, compiles the files it changed into the copy's dist/, bundles
 * the copy's workflows, and returns the copy's root.
 */
export async function buildPatchedWorkflows(patchFile: string, dir: string, root: string = REPO_ROOT): Promise<string> {
  const patch = path.resolve(patchFile);
  if (!fs.existsSync(path.join(root, 'dist', WORKFLOW_BUNDLE_FILE))) throw new Error(`${root} has no dist/${WORKFLOW_BUNDLE_FILE}: build it first (npx tsx scripts/build.ts)`);
  fs.mkdirSync(dir, { recursive: true });
  for (const part of ['src', 'dist', 'bin', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) fs.cpSync(path.join(root, part), path.join(dir, part), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));

  const files = await patchedFiles(patch, dir);
  const outside = files.filter((file) => !/^src\/workflows\/[^/]+\.ts$/.test(file));
  if (files.length === 0 || outside.length > 0) throw new Error(`${patchFile}: only files of src/workflows/ may change here, not ${JSON.stringify(outside)}`);
  await run('git', ['apply', '--whitespace=nowarn', patch], { cwd: dir });

  const compilerOptions = buildCompilerOptions(dir);
  for (const file of files) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    const out = ts.transpileModule(source, { compilerOptions, fileName: path.join(dir, file), reportDiagnostics: true });
    const problems = out.diagnostics ?? [];
    if (problems.length > 0) throw new Error(`${file}: ${problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`);
    const compiled = path.join(dir, 'dist', path.relative('src', file)).replace(/\.ts$/, '.js');
    fs.writeFileSync(compiled, out.outputText);
    if (out.sourceMapText !== undefined) fs.writeFileSync(`${compiled}.map`, out.sourceMapText);
  }

  // Bundled in the copy, by its own compiled bundler module, so every module (preloads and
  // interceptors too) resolves inside the copy.
  const bundler = path.join(dir, 'dist', 'worker', 'workflow-bundle.js');
  const script = `require(${JSON.stringify(bundler)}).writeWorkflowBundle(${JSON.stringify(path.join(dir, 'dist', WORKFLOW_BUNDLE_FILE))}).catch((err) => { console.error(err); process.exit(1); });`;
  try {
    await run(process.execPath, ['-e', script], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const failed = err as { stderr?: string; message: string };
    throw new Error(`the workflows of ${dir} did not bundle: ${failed.message}\n${failed.stderr ?? ''}`);
  }
  return dir;
}
