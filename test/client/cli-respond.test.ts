import { inputResponseFlags, runCli, USAGE, UsageError } from '../../src/client/cli';

describe('mcp-host respond: its flags (inputResponseFlags)', () => {
  test.each([
    [{ json: '{"name":"Ada","age":41}' }, { action: 'accept', content: { name: 'Ada', age: 41 } }],
    [{ json: '{}' }, { action: 'accept', content: {} }],
    [{ accept: true }, { action: 'accept' }],
    [{ decline: true }, { action: 'decline' }],
    [{ cancel: true }, { action: 'cancel' }],
  ])('%j answers %j', (flags, response) => {
    expect(inputResponseFlags(flags)).toEqual(response);
  });

  test.each([
    [{}, 'respond takes exactly one of --json CONTENT, --accept, --decline, --cancel (got 0)'],
    [{ json: '{}', accept: true }, 'respond takes exactly one of --json CONTENT, --accept, --decline, --cancel (got 2)'],
    [{ decline: true, cancel: true }, 'respond takes exactly one of --json CONTENT, --accept, --decline, --cancel (got 2)'],
    [{ json: '[1]' }, '--json must be a JSON object of the form\'s fields, like {"name":"Ada"}, not [1]'],
    [{ json: 'null' }, '--json must be a JSON object'],
  ])('%j is a usage error', (flags, message) => {
    expect(() => inputResponseFlags(flags)).toThrow(UsageError);
    expect(() => inputResponseFlags(flags)).toThrow(message);
  });

  test('bad JSON is a usage error naming it', () => {
    expect(() => inputResponseFlags({ json: '{name: Ada}' })).toThrow(/^--json is not valid JSON \(.+\): \{name: Ada\}$/);
  });
});

describe('mcp-host respond: usage (runCli, no server needed)', () => {
  async function run(...argv: string[]): Promise<{ code: number; err: string[] }> {
    const err: string[] = [];
    const code = await runCli(argv, undefined, () => undefined, (line) => err.push(line));
    return { code, err };
  }

  test('a bad answer or missing argument exits 2 with the reason and the usage', async () => {
    for (const [argv, reason] of [
      [['respond', 'c1', 'in_1', '--json', '{bad'], 'mcp-host: --json is not valid JSON'],
      [['respond', 'c1', 'in_1'], 'mcp-host: respond takes exactly one of'],
      [['respond', 'c1', '--accept'], 'mcp-host: expected ID REQUEST_ID, got 1 argument(s)'],
    ] as const) {
      const { code, err } = await run(...argv);
      expect(code).toBe(2);
      expect(err.join('\n')).toContain(reason);
      expect(err.join('\n')).toContain(USAGE);
    }
  });

  test('the usage lists respond and pending lists inputs', () => {
    expect(USAGE).toContain('mcp-host respond ID REQUEST_ID --json CONTENT|--accept|--decline|--cancel');
    expect(USAGE).toMatch(/mcp-host pending .*tool approval or for a server's\n.*request for input/);
  });
});
