/**
 * The machine, versions and build a chaos run measured: what the report prints above its table,
 * so figures are never read without knowing where they came from.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../test/support/repo';

/** Where and on what a run ran. */
export interface RunEnvironment {
  machine: string;
  versions: string;
  /** The build under test: tree, commit, and whether its sources had uncommitted changes. */
  build: string;
}

function run(command: string, args: string[], cwd = REPO_ROOT): string {
  const done = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return done.status === 0 ? done.stdout.trim() : '?';
}

function packageVersion(name: string): string {
  const file = path.join(REPO_ROOT, 'node_modules', name, 'package.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version : '?';
}

/** Describes this machine, the toolchain, and the build in `root` (default this repo). */
export function runEnvironment(temporalCli: string, root: string = REPO_ROOT): RunEnvironment {
  const cpus = os.cpus();
  const machine =
    `${os.type()} ${os.release()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM (shared with other work)`;
  const versions =
    `node ${process.version}, ${run(temporalCli, ['--version'])}, @temporalio/* ${packageVersion('@temporalio/worker')}, ` +
    `@modelcontextprotocol/client ${packageVersion('@modelcontextprotocol/client')}, @anthropic-ai/sdk ${packageVersion('@anthropic-ai/sdk')}`;
  const commit = run('git', ['log', '-1', '--format=%h %s'], root);
  const dirty = run('git', ['status', '--porcelain', '--', 'src'], root) !== '' ? ', with uncommitted changes in src/' : '';
  const tree = path.resolve(root) === REPO_ROOT ? 'this repository' : root;
  return { machine, versions, build: `${tree} at ${commit.length > 90 ? `${commit.slice(0, 87)}…` : commit}${dirty}` };
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them. */
export function loadAverage(): string {
  return os.loadavg().map((n) => n.toFixed(2)).join(', ');
}
