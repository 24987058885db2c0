/**
 * `--server-tools` on start and chat, `MCP_HOST_SERVER_TOOLS` as the default, and the library's
 * `serverTools` option: named in the usage, a wrong value refused (listing the accepted names)
 * before any server is asked, `none` overriding the default.
 */
import { runCli } from '../../src/client/cli';
import { conversationOptions } from '../../src/client/conversation-options';
import { readSettings } from '../../src/config/settings';

async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, undefined, (line) => out.push(line), (line) => err.push(line));
  return { code, out, err };
}

describe('mcp-host --server-tools', () => {
  test('the usage text names the flag for start and chat', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('[--server-tools none|web_search[:N],web_fetch[:N],code_execution]');
    expect(out.join('\n')).toMatch(/\[--tool-search on\|off\|auto\] \[--server-tools none\|NAME\[:N\],…\]/);
  });

  test.each([
    ['start', '--server-tools', 'web_search,browser', 'hi'],
    ['chat', '--server-tools', 'memory'],
  ])('%s with an unknown server tool: usage error naming the accepted ones, exit code 2', async (...argv) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/--server-tools: unknown server tool "(browser|memory)": expected none or a comma-separated list of web_search, web_fetch, code_execution/);
  });

  test('a wrong maximum is a usage error too', async () => {
    const { code, err } = await run('start', '--server-tools', 'code_execution:2', 'hi');
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(/takes no maximum number of uses/);
  });
});

describe('MCP_HOST_SERVER_TOOLS', () => {
  test('read in the --server-tools form; unset or empty is none', () => {
    expect(readSettings({ MCP_HOST_SERVER_TOOLS: 'web_search:5,web_fetch' }).serverTools).toEqual([{ name: 'web_search', maxUses: 5 }, { name: 'web_fetch' }]);
    expect(readSettings({}).serverTools).toEqual([]);
    expect(readSettings({ MCP_HOST_SERVER_TOOLS: ' ' }).serverTools).toEqual([]);
    expect(readSettings({ MCP_HOST_SERVER_TOOLS: 'none' }).serverTools).toEqual([]);
  });

  test('a wrong value is refused by name', () => {
    expect(() => readSettings({ MCP_HOST_SERVER_TOOLS: 'websearch' })).toThrow(/^MCP_HOST_SERVER_TOOLS: unknown server tool "websearch"/);
  });
});

describe('conversationOptions serverTools', () => {
  test('the default applies when none is chosen; a choice (none included) wins; none is left out of the options', () => {
    const fallback = [{ name: 'web_search' as const, maxUses: 3 }];
    expect(conversationOptions({}, undefined, fallback).serverTools).toEqual(fallback);
    expect(conversationOptions({ serverTools: [{ name: 'code_execution' }] }, undefined, fallback).serverTools).toEqual([{ name: 'code_execution' }]);
    expect('serverTools' in conversationOptions({ serverTools: [] }, undefined, fallback)).toBe(false);
    expect('serverTools' in conversationOptions({})).toBe(false);
  });

  test('a library caller\'s wrong value is refused with the accepted names', () => {
    expect(() => conversationOptions({ serverTools: [{ name: 'web_browse' }] } as never)).toThrow(/unknown server tool "web_browse": expected none or a comma-separated list of web_search, web_fetch, code_execution/);
    expect(() => conversationOptions({ serverTools: 'web_search' } as never)).toThrow(/must be a list/);
  });
});
