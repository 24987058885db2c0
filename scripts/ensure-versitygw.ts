/**
 * `npm run setup:s3`: makes sure the S3-compatible server the payload-store tests write to is in the
 * project's cache (`<cache root>/versitygw-v<version>/versitygw`), building it once with Go when it
 * is missing (a few minutes; no prebuilt binary is downloaded). Prints where it is.
 *
 * The server is Versity Gateway (github.com/versity/versitygw, Apache-2.0): one Go binary that
 * serves the S3 API over a plain directory (its `posix` backend), so a test starts a real S3 server
 * of its own in a temp dir, in a second. MinIO is AGPL; SeaweedFS is a much heavier build.
 * Its go.mod has no `replace` directive, so `go install …@v<version>` builds it as released; the
 * binary goes to a temp dir beside the target and is renamed, so an interrupted build leaves no
 * half binary behind.
 *
 * Tests never build: they import {@link versitygwBinaryPath} and skip (or fail in CI) without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectCacheRoot } from '../src/temporal/cli-cache';

/** The Versity Gateway release built. */
export const VERSITYGW_VERSION = '1.8.0';

const COMMAND = 'github.com/versity/versitygw/cmd/versitygw';

/** Where the binary lives: `<cache root>/versitygw-v<version>/versitygw`. */
export function versitygwBinaryPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(projectCacheRoot(env), `versitygw-v${VERSITYGW_VERSION}`, 'versitygw');
}

/** Runs `go …` at a lower priority (the build takes both cores for minutes); its output is shown only when it fails. */
function go(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('nice', ['-n', '10', 'go', ...args], {
      env: { ...process.env, ...env, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', (err) => reject(new Error(`cannot run go (is Go installed?): ${err.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      // `nice` answers 127 when it cannot find the command.
      else if (code === 127) reject(new Error(`cannot run go (is Go installed and on PATH?): ${output.trim()}`));
      else reject(new Error(`go ${args.join(' ')} failed (${signal ?? `exit ${String(code)}`})${output ? `:\n${output.trim()}` : ''}`));
    });
  });
}

/** Builds the binary into `target` by way of a temp dir next to it. */
async function build(target: string, log: (line: string) => void): Promise<void> {
  const dir = path.dirname(target);
  log(`building Versity Gateway v${VERSITYGW_VERSION} with Go into ${dir} (a few minutes, once) ...`);
  fs.mkdirSync(dir, { recursive: true });
  // What a killed build left (its `finally` never ran).
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith('partial-')) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
  const partialDir = path.join(dir, `partial-${process.pid}`);
  try {
    await go(['install', `${COMMAND}@v${VERSITYGW_VERSION}`], { GOBIN: partialDir });
    const built = path.join(partialDir, 'versitygw');
    const check = spawnSync(built, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (check.status !== 0) throw new Error(`the built binary does not run (${built} --version: exit ${String(check.status)}) ${check.stderr}`);
    fs.renameSync(built, target);
  } finally {
    fs.rmSync(partialDir, { recursive: true, force: true });
  }
}

/** Returns the binary's path, building it first when it is missing. */
export async function ensureVersitygw(log: (line: string) => void): Promise<string> {
  const target = versitygwBinaryPath();
  if (!fs.existsSync(target)) await build(target, log);
  return target;
}

if (require.main === module) {
  ensureVersitygw((line) => process.stderr.write(`${line}\n`)).then(
    (binary) => process.stderr.write(`Versity Gateway v${VERSITYGW_VERSION}: ${binary}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
