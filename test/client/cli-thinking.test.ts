/** `--thinking` and `mcp-host thinking ID SPEC`: what is refused before any server is asked (runCli, no server needed). */
import { runCli } from '../../src/client/cli';

async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, undefined, (line) => out.push(line), (line) => err.push(line));
  return { code, out, err };
}

describe('mcp-host --thinking', () => {
  test('the usage text names the flag and the verb', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('[--thinking off|adaptive|adaptive:EFFORT|BUDGET]');
    expect(out.join('\n')).toContain('mcp-host thinking ID off|adaptive|adaptive:EFFORT|BUDGET');
    expect(out.join('\n')).toMatch(/mcp-host chat .*\[--thinking SPEC\]/);
  });

  test.each<[string[], string]>([
    [['start', '--thinking', 'lots', 'hi'], 'mcp-host: --thinking: invalid thinking "lots": expected off, adaptive, adaptive:EFFORT (low|medium|high|xhigh|max) or a token budget BUDGET ≥ 1024'],
    [['start', '--thinking', '512', 'hi'], 'mcp-host: --thinking: invalid thinking "512"'],
    [['start', '--thinking', '4096', '--max-tokens', '4096', 'hi'], 'mcp-host: --thinking: the thinking budget (4096 tokens) must be less than maxTokens (4096)'],
    [['chat', '--thinking', 'adaptive:extreme'], 'mcp-host: --thinking: invalid thinking "adaptive:extreme"'],
    [['thinking', 'conv-1', 'sometimes'], 'mcp-host: --thinking: invalid thinking "sometimes"'],
    [['thinking', 'conv-1'], 'mcp-host: expected ID SPEC, got 1 argument(s)'],
  ])('%j exits 2 with the reason and the usage', async (argv, reason) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain(reason);
    expect(err.join('\n')).toContain('usage:');
  });
});
