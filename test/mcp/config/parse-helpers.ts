import { resolve } from 'node:path';

import { McpConfigError, parseMcpConfig, type McpServerConfig, type ParseMcpConfigOptions } from '../../../src/mcp/config';

/** The directory relative paths of the parsed "file" resolve against. */
export const BASE = resolve('/srv/project');

/** Parse options for a file named mcp.json in {@link BASE}, expanding from `env`. */
export const options = (env: Record<string, string | undefined> = {}): ParseMcpConfigOptions => ({
  env,
  source: 'mcp.json',
  baseDir: BASE,
});

/** parseMcpConfig with {@link options}. */
export const parse = (json: unknown, env: Record<string, string | undefined> = {}): McpServerConfig[] =>
  parseMcpConfig(json, options(env));

/** Runs `fn`, expecting an McpConfigError, and returns it. */
export function configError(fn: () => unknown): McpConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(McpConfigError);
    return err as McpConfigError;
  }
  throw new Error('expected an McpConfigError');
}
