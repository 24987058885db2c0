import * as fs from 'node:fs';
import * as path from 'node:path';
import { cachedTemporalCliCandidates } from './cli-cache';

/** Where a usable `temporal` binary was found, and by which rule. */
export interface FoundTemporalCli {
  path: string;
  source: 'TEMPORAL_CLI_PATH' | 'PATH' | 'cache';
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds a `temporal` binary: `TEMPORAL_CLI_PATH` first, then `PATH`, then the project's cache
 * (whichever source's CLI is there, the newest pinned release first: see {@link cachedTemporalCliCandidates}).
 * Returns undefined when there is none; a `TEMPORAL_CLI_PATH` that points nowhere is an error,
 * since silently falling back would hide a typo.
 */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): FoundTemporalCli | undefined {
  const explicit = env.TEMPORAL_CLI_PATH;
  if (explicit) {
    if (!isExecutable(explicit)) {
      throw new Error(`TEMPORAL_CLI_PATH=${explicit} is not an executable file`);
    }
    return { path: explicit, source: 'TEMPORAL_CLI_PATH' };
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'temporal');
    if (isExecutable(candidate)) return { path: candidate, source: 'PATH' };
  }
  const cached = cachedTemporalCliCandidates(env).find(isExecutable);
  return cached !== undefined ? { path: cached, source: 'cache' } : undefined;
}
