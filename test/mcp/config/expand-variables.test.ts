import { configError, parse } from './parse-helpers';

describe('parseMcpConfig: ${VAR} expansion', () => {
  const env = { HOME: '/home/me', TOKEN: 'secret-token', EMPTY: '', PORT: '8080' };

  test('expands in command, args, env, url and headers', () => {
    const servers = parse(
      {
        mcpServers: {
          s: { command: '${HOME}/bin/srv', args: ['--port', '${PORT}', 'x${PORT}y'], env: { KEY: '${TOKEN}' } },
          h: { url: 'http://localhost:${PORT}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        },
      },
      env,
    );
    expect(servers[0]).toMatchObject({
      command: '/home/me/bin/srv',
      args: ['--port', '8080', 'x8080y'],
      env: { KEY: 'secret-token' },
    });
    expect(servers[1]).toMatchObject({ url: 'http://localhost:8080/mcp', headers: { Authorization: 'Bearer secret-token' } });
  });

  test('defaults apply when unset or empty; set value wins', () => {
    const [s] = parse(
      { mcpServers: { s: { command: 'x', args: ['${NOPE:-dflt}', '${EMPTY:-e}', '${PORT:-1}', '${NOPE:-}', '${EMPTY}'] } } },
      env,
    );
    expect(s).toMatchObject({ args: ['dflt', 'e', '8080', '', ''] });
  });

  test('$$, bare $VAR and lone $ are left literal', () => {
    const [s] = parse({ mcpServers: { s: { command: 'x', args: ['$$', '$HOME', 'a$', 'price $5', '$${HOME}'] } } }, env);
    expect(s).toMatchObject({ args: ['$$', '$HOME', 'a$', 'price $5', '$${HOME}'] });
  });

  test('VS Code ${env:VAR} spelling', () => {
    const [s] = parse({ servers: { s: { command: 'x', env: { K: '${env:TOKEN}' } } } }, env);
    expect(s).toMatchObject({ env: { K: 'secret-token' } });
  });

  test('unset variable without default is an error naming server, field and variable', () => {
    const err = configError(() => parse({ mcpServers: { gh: { command: 'x', env: { GITHUB_TOKEN: '${GH_TOKEN}' } } } }));
    expect(err.message).toBe(
      'mcp.json: server "gh": "env.GITHUB_TOKEN" uses environment variable "GH_TOKEN", which is not set (write "${GH_TOKEN:-default}" to give a default)',
    );
    expect(err.server).toBe('gh');
    expect(err.field).toBe('env.GITHUB_TOKEN');
    expect(err.source).toBe('mcp.json');
  });

  test('unset variable in args names the index', () => {
    const err = configError(() => parse({ mcpServers: { s: { command: 'x', args: ['a', '${NOPE}'] } } }));
    expect(err.field).toBe('args[1]');
  });

  test('${input:...} is reported as not supported', () => {
    const err = configError(() =>
      parse({ inputs: [], servers: { s: { type: 'http', url: 'https://x', headers: { Authorization: '${input:key}' } } } }),
    );
    expect(err.message).toContain('"headers.Authorization"');
    expect(err.message).toContain('not supported');
    expect(err.message).toContain('${input:key}');
  });

  test.each(['${}', '${foo bar}', '${1X}', '${A-b}'])('malformed reference %s is an error', (ref) => {
    const err = configError(() => parse({ mcpServers: { s: { command: 'x', args: [ref] } } }));
    expect(err.message).toContain('unsupported reference');
  });

  test('unterminated ${ is an error', () => {
    expect(() => parse({ mcpServers: { s: { command: 'x', args: ['abc${HOME'] } } }, env)).toThrow(/unterminated/);
  });

  test('error messages never contain env or header values', () => {
    const err = configError(() =>
      parse({ mcpServers: { s: { url: 'https://x', headers: { Authorization: 'Bearer sk-live-123', X: 5 } } } }),
    );
    expect(err.message).not.toContain('sk-live-123');
    expect(err.field).toBe('headers.X');
  });
});
