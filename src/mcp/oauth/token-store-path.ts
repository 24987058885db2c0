import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The environment variable that names the OAuth token store (shared by `login` and every worker):
 * a file path, or `s3://bucket/prefix` for the S3 store (oauth-store-setting.ts).
 */
export const OAUTH_STORE_ENV = 'MCP_HOST_OAUTH_STORE';

/**
 * Where OAuth tokens are kept: `MCP_HOST_OAUTH_STORE` when set, else
 * `$XDG_CONFIG_HOME/durable-mcp-host/oauth-tokens.json`, else `~/.config/durable-mcp-host/oauth-tokens.json`.
 * `mcp-host login` and the workers must agree on it: workers on other machines need the same path on
 * a shared file system, or a copy of the file, or the S3 store. Only for the file store: an
 * `s3://` value is read by `oauthStoreSetting` (oauth-store-setting.ts).
 */
export function oauthStorePath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const named = env[OAUTH_STORE_ENV];
  if (named !== undefined && named.trim() !== '') return resolve(named);
  const config = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME.trim() !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(resolve(config), 'durable-mcp-host', 'oauth-tokens.json');
}
