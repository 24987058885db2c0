import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

import { McpConfigError } from './config-error';
import { errorMessage } from './describe-json';
import { parseJsonc } from './jsonc';
import type { McpServerConfig } from './mcp-server-config';
import { parseMcpConfig } from './parse-mcp-config';

/**
 * Reads and parses an MCP configuration file. This is the only function of the configuration
 * module that does I/O. Comments and trailing commas are tolerated because VS Code's mcp.json
 * is JSONC. Relative paths in the file resolve against the file's directory.
 *
 * @param path The file to read.
 * @param env Variables for `${VAR}` expansion; defaults to `process.env`.
 * @throws McpConfigError naming the file when it cannot be read, is not valid JSON or
 *   fails {@link parseMcpConfig}'s validation.
 */
export async function loadMcpConfig(
  path: string,
  env: Record<string, string | undefined> = process.env,
): Promise<McpServerConfig[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new McpConfigError(`cannot read the file: ${errorMessage(err)}`, { source: path, cause: err });
  }
  const json = parseJsonc(text, path);
  return parseMcpConfig(json, { env, source: path, baseDir: dirname(resolve(path)) });
}
