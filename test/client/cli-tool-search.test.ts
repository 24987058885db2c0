/** `--tool-search on|off|auto` on start and chat: named in the usage, a wrong value refused before any server is asked. */
import { runCli } from '../../src/client/cli';

async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, undefined, (line) => out.push(line), (line) => err.push(line));
  return { code, out, err };
}

describe('mcp-host --tool-search', () => {
  test('the usage text names the flag for start and chat', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('[--tool-search on|off|auto]');
    expect(out.join('\n')).toMatch(/--input-timeout S\] \[--tool-search on\|off\|auto\]/);
  });

  test.each([['start', '--tool-search', 'sometimes', 'hi'], ['chat', '--tool-search', 'yes']])('%s with a wrong mode: usage error, exit code 2', async (...argv) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/--tool-search: must be one of on, off, auto/);
  });
});
