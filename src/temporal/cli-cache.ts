import * as os from 'node:os';
import * as path from 'node:path';
import { TEMPORAL_CLI_VERSION } from './cli-version';

/**
 * The per-user folder where the project keeps the Temporal CLI it built or downloaded.
 * It lives outside the work tree so a fresh clone (CI's, a second checkout) reuses it.
 * `DURABLE_MCP_HOST_CACHE` overrides the root, e.g. to test a clean install.
 */
export function temporalCliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const root =
    env.DURABLE_MCP_HOST_CACHE ??
    path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'durable-mcp-host');
  return path.join(root, 'temporal-cli', `v${TEMPORAL_CLI_VERSION}`);
}
