/**
 * `mcp-host servers` through the CLI entry (runCli, in process, as test/integration/cli-list-tools
 * runs `tools`): the table or JSON on stdout, exit code 0 when every server is connected and 1 when
 * one is failing (every row printed still), 2 for wrong usage. No Temporal needed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/client/cli';
import type { ServerRow } from '../../src/client/server-row';
import { readSettings } from '../../src/config/settings';
import { REPO_ROOT } from '../support/repo';

const WEATHER = { command: process.execPath, args: ['--import', 'tsx', path.join(REPO_ROOT, 'src/example-servers/weather/main.ts')], cwd: REPO_ROOT };

describe('mcp-host servers', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-servers-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function cli(mcpServers: Record<string, unknown>, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const config = path.join(dir, `${Object.keys(mcpServers).join('-')}.json`);
    fs.writeFileSync(config, JSON.stringify({ mcpServers }));
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, readSettings({ MCP_CONFIG: config, MCP_HOST_OAUTH_STORE: path.join(dir, 'tokens.json') }), (t) => out.push(t), (t) => err.push(t));
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  test('every server connected: the blocks, exit code 0', async () => {
    const run = await cli({ weather: { ...WEATHER, env: { WEATHER_KEY: 'cli-env-secret-2468' } } }, 'servers');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^weather: connected\n {2}stdio {9}\S+ --import tsx \S+main\.ts\n {2}protocol {6}2026-07-28 \(modern, probed\)\n/);
    expect(run.stdout).toContain('  tools         1 offered');
    expect(run.stdout).not.toContain('cli-env-secret-2468');
    expect(run.stderr).toBe('');
  }, 60_000);

  test('one server failing: every row still printed (--json), exit code 1', async () => {
    const run = await cli({ weather: WEATHER, broken: { command: process.execPath, args: ['-e', 'process.exit(1)'] } }, 'servers', '--json');
    expect(run.code).toBe(1);
    const rows = JSON.parse(run.stdout) as ServerRow[];
    expect(rows.map((r) => [r.name, r.health])).toEqual([
      ['weather', 'connected'],
      ['broken', 'failing'],
    ]);
    expect(rows[0]).toMatchObject({ protocol: { version: '2026-07-28', era: 'modern' }, tools: { count: 1 }, auth: 'none' });
  }, 60_000);

  test('a positional argument is wrong usage (exit code 2); the usage names the verb', async () => {
    const run = await cli({ weather: WEATHER }, 'servers', 'weather');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mcp-host servers [--json]');
  });

  test('the human form ends with the live path: the broker by its URL without credentials, or the heartbeats', async () => {
    const config = path.join(dir, 'none.json');
    fs.writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const run = async (env: Record<string, string>): Promise<string> => {
      const out: string[] = [];
      expect(await runCli(['servers'], readSettings({ MCP_CONFIG: config, ...env }), (t) => out.push(t), () => undefined)).toBe(0);
      return out.join('\n');
    };
    expect(await run({})).toBe('(no MCP servers configured)\n\nLive text: heartbeats (MCP_HOST_LIVE_URL unset)');
    const broker = await run({ MCP_HOST_LIVE_URL: 'redis://app:cli-live-pw-1357@127.0.0.1:6390/1' });
    expect(broker).toBe('(no MCP servers configured)\n\nLive text: Redis redis://127.0.0.1:6390/1 (stream per conversation)');
    expect(broker).not.toContain('cli-live-pw-1357');
  });
});
