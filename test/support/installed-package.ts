/**
 * The project as an application gets it: `npm pack` of the repository (what `files` and `exports`
 * publish), installed into an empty project with `npm ci --offline` — the production dependencies
 * only, from npm's cache (no download at test time), with a lockfile made from the repository's.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from './repo';

interface LockEntry {
  version?: string;
  resolved?: string;
  dev?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

/** The app's lockfile: the package from the tarball, and the repository's non-dev packages. */
function appLockfile(tarball: string, dependencies: Record<string, string>): object {
  const repoLock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lockfile;
  const packages: Record<string, LockEntry> = {
    '': { name: 'app', dependencies: { 'durable-mcp-host': `file:${tarball}` } },
    'node_modules/durable-mcp-host': { version: '0.1.0', resolved: `file:${tarball}`, dependencies },
  };
  for (const [key, entry] of Object.entries(repoLock.packages)) {
    if (key === '' || entry.dev === true) continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    // The repository's lockfile records no tarball URLs; offline, npm needs them to find the cached tarballs.
    const resolved =
      entry.resolved ?? (entry.version !== undefined && entry.link !== true ? `https://registry.npmjs.org/${name}/-/${name.split('/').pop() ?? name}-${entry.version}.tgz` : undefined);
    packages[key] = { ...entry, ...(resolved !== undefined ? { resolved } : {}) };
  }
  return { name: 'app', lockfileVersion: 3, requires: true, packages };
}

/** An empty project with the packed package installed; returns its folder. */
export function installPackedPackage(): { appDir: string; tarballFiles: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-pack-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: REPO_ROOT, encoding: 'utf8' })) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  const tarball = packed[0];
  if (!tarball) throw new Error('npm pack printed no package');
  const appDir = path.join(dir, 'app');
  fs.mkdirSync(appDir);
  const relative = `../${path.basename(tarball.filename)}`;
  const repoPackage = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  fs.writeFileSync(path.join(appDir, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: { 'durable-mcp-host': `file:${relative}` } }, null, 2));
  fs.writeFileSync(path.join(appDir, 'package-lock.json'), JSON.stringify(appLockfile(relative, repoPackage.dependencies), null, 2));
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: appDir, stdio: ['ignore', 'ignore', 'pipe'] });
  return { appDir, tarballFiles: tarball.files.map((f) => f.path) };
}
