import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { temporalCliCacheDir } from './cli-cache';
import { TEMPORAL_CLI_GO_PACKAGE, TEMPORAL_CLI_VERSION } from './cli-version';
import { findTemporalCli, type FoundTemporalCli } from './find-temporal-cli';

/** What to tell a user when no way of getting the CLI worked. */
export const NO_TEMPORAL_CLI_HELP = [
  'No Temporal CLI could be found, downloaded or built.',
  `  - install it (https://docs.temporal.io/cli) and put \`temporal\` on PATH, or set TEMPORAL_CLI_PATH;`,
  `  - or install Go and run: go install ${TEMPORAL_CLI_GO_PACKAGE}@v${TEMPORAL_CLI_VERSION};`,
  '  - or point TEMPORAL_ADDRESS at a running Temporal server (npm start then runs only the worker).',
].join('\n');

type Log = (line: string) => void;

/**
 * Tries the Temporal SDK's own cached download of the CLI (the friendly path on a laptop with
 * internet and no Go). On a machine that only reaches package registries it fails at once.
 */
async function tryCachedDownload(cacheDir: string, log: Log): Promise<string | undefined> {
  const downloadDir = path.join(cacheDir, 'sdk-download');
  fs.mkdirSync(downloadDir, { recursive: true });
  log('trying the Temporal SDK download of the CLI ...');
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
  } catch (err) {
    log(`  the download did not work: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    return undefined;
  } finally {
    if (timer) clearTimeout(timer);
  }
  const binary = fs
    .readdirSync(downloadDir)
    .map((name) => path.join(downloadDir, name))
    .find((file) => path.basename(file).startsWith('temporal') && fs.statSync(file).isFile());
  if (!binary) return undefined;
  const target = path.join(cacheDir, 'temporal');
  fs.copyFileSync(binary, target);
  fs.chmodSync(target, 0o755);
  return target;
}

/** Builds the pinned CLI version with `go install` into the cache folder, output streamed to stderr. */
async function tryGoInstall(cacheDir: string, log: Log): Promise<string | undefined> {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) {
    log('  no Go toolchain found, cannot build the CLI');
    return undefined;
  }
  log(`building the Temporal CLI v${TEMPORAL_CLI_VERSION} with Go (a few minutes, once) ...`);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn('go', ['install', `${TEMPORAL_CLI_GO_PACKAGE}@v${TEMPORAL_CLI_VERSION}`], {
      env: { ...process.env, GOBIN: cacheDir, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', () => resolve(-1));
    child.on('exit', resolve);
  });
  const target = path.join(cacheDir, 'temporal');
  if (code !== 0 || !fs.existsSync(target)) {
    log(`  go install failed (exit ${String(code)})`);
    return undefined;
  }
  return target;
}

/**
 * Returns a usable Temporal CLI, getting one if needed: an existing binary (TEMPORAL_CLI_PATH, PATH,
 * cache), else the SDK's cached download, else `go install` of the pinned version into the cache.
 * Throws with {@link NO_TEMPORAL_CLI_HELP} when nothing works.
 */
export async function ensureTemporalCli(log: Log = (line) => process.stderr.write(`${line}\n`)): Promise<FoundTemporalCli> {
  const found = findTemporalCli();
  if (found) return found;
  const cacheDir = temporalCliCacheDir();
  fs.mkdirSync(cacheDir, { recursive: true });
  const built = (await tryCachedDownload(cacheDir, log)) ?? (await tryGoInstall(cacheDir, log));
  if (!built) throw new Error(NO_TEMPORAL_CLI_HELP);
  log(`Temporal CLI ready: ${built}`);
  return { path: built, source: 'cache' };
}
