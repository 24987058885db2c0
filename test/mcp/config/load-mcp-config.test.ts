import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadMcpConfig, McpConfigError } from '../../../src/mcp/config';

describe('loadMcpConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-config-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('reads the file; relative paths resolve against its directory', async () => {
    const file = join(dir, '.mcp.json');
    await writeFile(file, JSON.stringify({ mcpServers: { local: { command: './srv.js', env: { K: '${K}' } } } }));
    expect(await loadMcpConfig(file, { K: 'v' })).toEqual([
      { name: 'local', transport: 'stdio', command: join(dir, 'srv.js'), args: [], env: { K: 'v' }, tools: {} },
    ]);
  });

  test('uses process.env by default', async () => {
    const file = join(dir, 'env.json');
    await writeFile(file, JSON.stringify({ mcpServers: { s: { command: 'x', args: ['${MCP_CONFIG_TEST_VAR}'] } } }));
    process.env.MCP_CONFIG_TEST_VAR = 'from-process';
    try {
      expect((await loadMcpConfig(file))[0]).toMatchObject({ args: ['from-process'] });
    } finally {
      delete process.env.MCP_CONFIG_TEST_VAR;
    }
  });

  test('accepts JSONC (VS Code): comments, trailing commas, BOM', async () => {
    const file = join(dir, 'vscode.json');
    await writeFile(
      file,
      '\ufeff{\n  // my servers\n  "servers": {\n    /* block */ "a": { "type": "http", "url": "https://x//y", },\n    "b": {"command": "c", "args": ["//not a comment", "a,]"],},\n  },\n}\n',
    );
    const servers = await loadMcpConfig(file, {});
    expect(servers).toEqual([
      { name: 'a', transport: 'http', url: 'https://x//y', headers: {}, tools: {} },
      { name: 'b', transport: 'stdio', command: 'c', args: ['//not a comment', 'a,]'], env: {}, tools: {} },
    ]);
  });

  test('JSON syntax error names the file and line, without quoting the content', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "s": { "command": "x", "env": { "K": "sk-secret" } "oops": 1 }\n  }\n}\n');
    const err = await loadMcpConfig(file, {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpConfigError);
    const message = (err as McpConfigError).message;
    expect(message).toMatch(new RegExp(`^${escapeRegExp(file)}: is not valid JSON: .* at line 3, column \\d+$`));
    expect(message).not.toContain('sk-secret');
  });

  test('syntax error without position (V8 quotes a snippet) is redacted', async () => {
    const file = join(dir, 'snippet.json');
    await writeFile(file, '{"mcpServers": {"s": {"command": "sk-secret"}}}}');
    await expect(loadMcpConfig(file, {})).rejects.toThrow(McpConfigError);
    await expect(loadMcpConfig(file, {})).rejects.not.toThrow(/sk-secret/);
  });

  test('missing file is an McpConfigError naming the file', async () => {
    const file = join(dir, 'nope.json');
    await expect(loadMcpConfig(file, {})).rejects.toThrow(new RegExp(`^${escapeRegExp(file)}: cannot read the file: .*ENOENT`));
  });

  test('validation errors name the file path as source', async () => {
    const file = join(dir, 'invalid.json');
    await writeFile(file, JSON.stringify({ mcpServers: { weather: { url: 'htp:/x' } } }));
    await expect(loadMcpConfig(file, {})).rejects.toThrow(`${file}: server "weather": "url" is not a valid URL: "htp:/x"`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
