/**
 * The environment variables of the worker and the CLI: the public interface, kept stable.
 * Secrets (the API key) are read here and stay in the worker process.
 */
import * as path from 'node:path';
import { DEFAULT_TEMPORAL_NAMESPACE, loadConnectionConfig, type TemporalConnectionConfig } from '../temporal/connection-config';
import { parseServerTools, type ServerToolSpec } from '../claude/server-tools';
import { parseLiveUrl, type LiveUrl } from '../live/live-url';

/** Defaults shared by the worker, the CLI and the docs. */
export const DEFAULTS = {
  namespace: DEFAULT_TEMPORAL_NAMESPACE,
  taskQueue: 'mcp-host',
  mcpConfig: 'mcp.json',
  model: 'claude-sonnet-4-6',
  maxTokens: 1024,
  maxIterations: 10,
  devServerPort: 7233,
  devServerUiPort: 8233,
} as const;

/** Settings read from the environment. */
export interface Settings {
  /**
   * How to reach Temporal: TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE / TEMPORAL_TLS* / TEMPORAL_API_KEY and
   * `temporal.toml` profiles (TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE), as the `temporal` CLI reads them.
   */
  temporal: TemporalConnectionConfig;
  /** The address the environment or the profile names; unset means `npm start` runs its own dev server. */
  temporalAddress: string | undefined;
  /** The namespace (TEMPORAL_NAMESPACE, else the profile's, else `default`). */
  namespace: string;
  taskQueue: string;
  /** Absolute path of the `mcp.json` (`MCP_CONFIG`). */
  mcpConfigPath: string;
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  anthropicVersion: string | undefined;
  model: string;
  /**
   * The server tools of new conversations that choose none (`MCP_HOST_SERVER_TOOLS`, in the
   * `--server-tools` form: `web_search,web_fetch:3,code_execution` or `none`); default none.
   */
  serverTools: ServerToolSpec[];
  /**
   * The live channel's broker (`MCP_HOST_LIVE_URL`, `redis://…` or `rediss://…`; src/live/): the
   * worker publishes each piece of a streaming answer to it, followers read it. Unset: heartbeats only.
   * Its URL may hold credentials: shown only as `display`.
   */
  live: LiveUrl | undefined;
}

/** `MCP_HOST_SERVER_TOOLS`, read; a wrong value is refused by name, so a typo never goes unseen. */
function serverToolsSetting(value: string | undefined): ServerToolSpec[] {
  if (value === undefined) return [];
  try {
    return parseServerTools(value);
  } catch (err) {
    throw new Error(`MCP_HOST_SERVER_TOOLS: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** Reads the settings from `env` (default: the process environment). */
export function readSettings(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Settings {
  const temporal = loadConnectionConfig(env);
  return {
    temporal,
    temporalAddress: temporal.addressConfigured ? temporal.address : undefined,
    namespace: temporal.namespace,
    taskQueue: nonEmpty(env.MCP_HOST_TASK_QUEUE) ?? DEFAULTS.taskQueue,
    mcpConfigPath: path.resolve(cwd, nonEmpty(env.MCP_CONFIG) ?? DEFAULTS.mcpConfig),
    anthropicApiKey: nonEmpty(env.ANTHROPIC_API_KEY),
    anthropicBaseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
    anthropicVersion: nonEmpty(env.ANTHROPIC_VERSION),
    model: nonEmpty(env.CLAUDE_MODEL) ?? DEFAULTS.model,
    serverTools: serverToolsSetting(nonEmpty(env.MCP_HOST_SERVER_TOOLS)),
    live: parseLiveUrl(env.MCP_HOST_LIVE_URL),
  };
}
