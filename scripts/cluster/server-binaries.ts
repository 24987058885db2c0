/**
 * The Temporal server and its SQL schema tool, built from source with `go install` into the
 * project's cache (once per machine), plus the server module's source folder, which holds the
 * PostgreSQL schema files and the sample config the cluster starts from.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectCacheRoot } from '../../src/temporal/cli-cache';
import { composeTemporalVersion } from './server-config';

/**
 * The server version: docker-compose.yml's (1.32.1 since 2026-12-07, the first tried that moves a
 * pinned conversation to a new worker deployment version on continue-as-new; 1.29.1 does not,
 * docs/upgrades.md; 1.32.2 needs a newer Go than this machine's 1.26.8), so the cluster proves
 * what compose runs. `MCP_HOST_CLUSTER_SERVER_VERSION` picks another, built on first use.
 */
export const TEMPORAL_SERVER_VERSION = process.env.MCP_HOST_CLUSTER_SERVER_VERSION ?? composeTemporalVersion();

const MODULE = 'go.temporal.io/server';

/** What the cluster runs and reads. */
export interface ServerBinaries {
  /** `temporal-server` (built as `server`). */
  server: string;
  /** `temporal-sql-tool` (built as `sql`). */
  sqlTool: string;
  /** The module's source in the Go module cache: `schema/`, `config/`. */
  moduleDir: string;
}

/** Where the binaries live: `<cache root>/temporal-server/v<version>`, like the CLI's folder. */
export function serverBinDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(projectCacheRoot(env), 'temporal-server', `v${TEMPORAL_SERVER_VERSION}`);
}

function goInstall(binDir: string, log: (line: string) => void): Promise<void> {
  const packages = ['cmd/server', 'cmd/tools/sql'].map((p) => `${MODULE}/${p}@v${TEMPORAL_SERVER_VERSION}`);
  log(`building Temporal server v${TEMPORAL_SERVER_VERSION} with Go into ${binDir} (several minutes, once) ...`);
  return new Promise((resolve, reject) => {
    const child = spawn('go', ['install', ...packages], {
      env: { ...process.env, GOBIN: binDir, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', (err) => reject(new Error(`cannot run go (is Go installed?): ${err.message}`)));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`go install ${packages.join(' ')} failed (exit ${String(code)})`))));
  });
}

/** The module's folder in the module cache; `go mod download` fetches it if the cache was cleaned. */
function moduleDir(): string {
  const result = spawnSync('go', ['mod', 'download', '-json', `${MODULE}@v${TEMPORAL_SERVER_VERSION}`], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`go mod download ${MODULE}@v${TEMPORAL_SERVER_VERSION} failed: ${result.stderr.trim()}`);
  const dir = (JSON.parse(result.stdout) as { Dir?: string }).Dir;
  if (!dir || !fs.existsSync(path.join(dir, 'schema'))) throw new Error(`go mod download gave no module folder for ${MODULE}`);
  return dir;
}

/** Returns the server binaries, building them first when they are missing. */
export async function ensureServerBinaries(log: (line: string) => void): Promise<ServerBinaries> {
  const binDir = serverBinDir();
  const server = path.join(binDir, 'server');
  const sqlTool = path.join(binDir, 'sql');
  if (!fs.existsSync(server) || !fs.existsSync(sqlTool)) await goInstall(binDir, log);
  return { server, sqlTool, moduleDir: moduleDir() };
}
