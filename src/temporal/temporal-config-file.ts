import * as os from 'node:os';
import * as path from 'node:path';

/** The `temporal.toml` the settings come from, and whether TEMPORAL_CONFIG_FILE named it. */
export interface TemporalConfigFile {
  path: string;
  explicit: boolean;
}

/**
 * The config file envconfig (and the `temporal` CLI) reads: TEMPORAL_CONFIG_FILE, else
 * `temporalio/temporal.toml` in the user's config folder (XDG_CONFIG_HOME or ~/.config on Linux,
 * ~/Library/Application Support on macOS, %APPDATA% on Windows). envconfig does not tell which file
 * it read; this names it for the start-up line and for a clear error when an explicit one is missing.
 * Undefined when there is no default location (no home folder).
 */
export function temporalConfigFile(env: Record<string, string | undefined>, platform: NodeJS.Platform = os.platform()): TemporalConfigFile | undefined {
  const explicit = env.TEMPORAL_CONFIG_FILE;
  if (explicit !== undefined && explicit !== '') return { path: explicit, explicit: true };
  // Without a home (or APPDATA) there is no default file, as in envconfig: never a path relative to the cwd.
  let dir: string | undefined;
  if (platform === 'win32') dir = env.APPDATA || undefined;
  else if (platform === 'darwin') dir = env.HOME ? path.join(env.HOME, 'Library', 'Application Support') : undefined;
  else if (env.XDG_CONFIG_HOME) dir = path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  else dir = env.HOME ? path.join(env.HOME, '.config') : undefined;
  return dir !== undefined ? { path: path.join(dir, 'temporalio', 'temporal.toml'), explicit: false } : undefined;
}
