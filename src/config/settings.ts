/**
 * The environment variables of the worker and the CLI: the public interface, kept stable.
 * Secrets (the API key) are read here and stay in the worker process.
 */
import * as path from 'node:path';

/** Defaults shared by the worker, the CLI and the docs. */
export const DEFAULTS = {
  namespace: 'default',
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
  /** `TEMPORAL_ADDRESS`; unset means `npm start` runs its own dev server. */
  temporalAddress: string | undefined;
  namespace: string;
  taskQueue: string;
  /** Absolute path of the `mcp.json` (`MCP_CONFIG`). */
  mcpConfigPath: string;
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  anthropicVersion: string | undefined;
  model: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** Reads the settings from `env` (default: the process environment). */
export function readSettings(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Settings {
  return {
    temporalAddress: nonEmpty(env.TEMPORAL_ADDRESS),
    namespace: nonEmpty(env.TEMPORAL_NAMESPACE) ?? DEFAULTS.namespace,
    taskQueue: nonEmpty(env.MCP_HOST_TASK_QUEUE) ?? DEFAULTS.taskQueue,
    mcpConfigPath: path.resolve(cwd, nonEmpty(env.MCP_CONFIG) ?? DEFAULTS.mcpConfig),
    anthropicApiKey: nonEmpty(env.ANTHROPIC_API_KEY),
    anthropicBaseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
    anthropicVersion: nonEmpty(env.ANTHROPIC_VERSION),
    model: nonEmpty(env.CLAUDE_MODEL) ?? DEFAULTS.model,
  };
}
