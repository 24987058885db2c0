import * as path from 'node:path';
import type { McpServerConfig } from '../../src/mcp/config';

/** The repository root. */
export const REPO_ROOT = path.resolve(__dirname, '../..');

/** A stdio server config that runs one of this repo's TypeScript MCP servers through tsx. */
export function tsServer(name: string, file: string, env: Record<string, string> = {}, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(REPO_ROOT, file)],
    env,
    cwd: REPO_ROOT,
    tools: {},
    ...extra,
  } as McpServerConfig;
}

/** The seed's weather server over stdio. */
export const weatherServer = (): McpServerConfig => tsServer('weather', 'src/example-servers/weather/main.ts');
