/**
 * `npm run setup:jaeger`: makes sure the Jaeger v2 binary the tracing tests send spans to is in the
 * project's cache (`<cache root>/jaeger-v<version>/jaeger`), building it once with Go when it is
 * missing (several minutes; no prebuilt binary is downloaded). Prints where it is.
 *
 * `go install github.com/jaegertracing/jaeger/cmd/jaeger@v…` refuses the module (its go.mod has
 * `replace` directives), so the build runs in a throwaway module that requires Jaeger as a tool
 * (`go get -tool`, which ignores those directives) and `go build`s its command. The binary is
 * written under a temp name and renamed, so an interrupted build leaves no half binary behind.
 *
 * Tests never build: they import {@link jaegerBinaryPath} and skip (or fail in CI) without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { projectCacheRoot } from '../src/temporal/cli-cache';

/** The Jaeger module version built (the Jaeger v2 binary of release v2.12.0 is tagged v1.75.0 in Go). */
export const JAEGER_VERSION = '1.75.0';

const COMMAND = 'github.com/jaegertracing/jaeger/cmd/jaeger';

/** Where the binary lives: `<cache root>/jaeger-v<version>/jaeger`. */
export function jaegerBinaryPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(projectCacheRoot(env), `jaeger-v${JAEGER_VERSION}`, 'jaeger');
}

/**
 * Runs `go …` in `cwd`. `go get` lists every module it adds (hundreds of lines): with `quiet` its
 * output is kept and shown only when it fails; the build's own output (errors) is shown as it comes.
 */
function go(args: string[], cwd: string, quiet = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, {
      cwd,
      env: { ...process.env, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
      stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', (err) => reject(new Error(`cannot run go (is Go installed?): ${err.message}`)));
    child.once('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`go ${args.join(' ')} failed (${signal ?? `exit ${String(code)}`})${output ? `:\n${output.trim()}` : ''}`)),
    );
  });
}

/** Builds the binary into `target` by way of a temp name next to it, in a throwaway module. */
async function build(target: string, log: (line: string) => void): Promise<void> {
  log(`building Jaeger v${JAEGER_VERSION} with Go into ${path.dirname(target)} (about 10 minutes, once) ...`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // What a killed build left (its `finally` never ran): never found as the binary, but 120 MB.
  for (const name of fs.readdirSync(path.dirname(target))) {
    if (name.startsWith(`${path.basename(target)}.partial-`)) fs.rmSync(path.join(path.dirname(target), name), { force: true });
  }
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jaeger-build-'));
  const partial = `${target}.partial-${process.pid}`;
  try {
    await go(['mod', 'init', 'jaegerbuild'], workDir, true);
    await go(['get', '-tool', `${COMMAND}@v${JAEGER_VERSION}`], workDir, true);
    await go(['build', '-o', partial, COMMAND], workDir);
    const check = spawnSync(partial, ['version'], { stdio: 'ignore', timeout: 30_000 });
    if (check.status !== 0) throw new Error(`the built binary does not run (${partial} version: exit ${String(check.status)})`);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** Returns the binary's path, building it first when it is missing. */
export async function ensureJaeger(log: (line: string) => void): Promise<string> {
  const target = jaegerBinaryPath();
  if (!fs.existsSync(target)) await build(target, log);
  return target;
}

if (require.main === module) {
  ensureJaeger((line) => process.stderr.write(`${line}\n`)).then(
    (binary) => process.stderr.write(`Jaeger v${JAEGER_VERSION}: ${binary}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
