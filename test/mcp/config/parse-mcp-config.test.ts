import { join, resolve } from 'node:path';

import { BASE, configError, parse } from './parse-helpers';

describe('parseMcpConfig: formats', () => {
  test('Claude Desktop stdio entry', () => {
    const servers = parse({
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1' } },
      },
    });
    expect(servers).toEqual([
      {
        name: 'filesystem',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { A: '1' },
        tools: {},
      },
    ]);
  });

  test('defaults: no args, no env', () => {
    expect(parse({ mcpServers: { s: { command: 'srv' } } })).toEqual([
      { name: 's', transport: 'stdio', command: 'srv', args: [], env: {}, tools: {} },
    ]);
  });

  test('url entry is Streamable HTTP; headers kept', () => {
    expect(parse({ mcpServers: { w: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } } } })).toEqual([
      { name: 'w', transport: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' }, tools: {} },
    ]);
  });

  test.each([
    ['http', 'http'],
    ['streamable-http', 'http'],
    ['sse', 'sse'],
  ] as const)('type %s → transport %s', (type, transport) => {
    const [server] = parse({ mcpServers: { w: { type, url: 'http://localhost:3000/mcp' } } });
    expect(server).toMatchObject({ transport, url: 'http://localhost:3000/mcp', headers: {} });
  });

  test('explicit type stdio', () => {
    expect(parse({ mcpServers: { s: { type: 'stdio', command: 'srv' } } })[0]).toMatchObject({ transport: 'stdio' });
  });

  test('VS Code "servers" format, "inputs" ignored', () => {
    const servers = parse({
      inputs: [{ type: 'promptString', id: 'key', description: 'API key', password: true }],
      servers: {
        github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
        local: { type: 'stdio', command: 'node', args: ['server.js'], env: { DEBUG: '1' } },
        legacy: { type: 'sse', url: 'http://localhost:8080/sse' },
      },
    });
    expect(servers.map((s) => [s.name, s.transport])).toEqual([
      ['github', 'http'],
      ['local', 'stdio'],
      ['legacy', 'sse'],
    ]);
  });

  test('protocolVersion pins one revision the host speaks, per server', () => {
    const servers = parse({
      mcpServers: { old: { command: 'a', protocolVersion: '2025-06-18' }, modern: { url: 'https://m.example/mcp', protocolVersion: '2026-07-28' }, free: { command: 'b' } },
    });
    expect(servers.map((server) => server.protocolVersion)).toEqual(['2025-06-18', '2026-07-28', undefined]);
  });

  test('project extensions: tools, timeoutMs, disabled, description', () => {
    const servers = parse({
      mcpServers: {
        a: { command: 'a', tools: { allow: ['x', 'y'] }, timeoutMs: 5000, description: 'A server' },
        b: { url: 'https://b.example', tools: { deny: ['rm'] } },
        c: { command: 'c', disabled: true },
        d: { command: 'd', disabled: false },
      },
    });
    expect(servers.map((s) => s.name)).toEqual(['a', 'b', 'd']);
    expect(servers[0]).toMatchObject({ tools: { allow: ['x', 'y'] }, timeoutMs: 5000 });
    expect(servers[1]).toMatchObject({ tools: { deny: ['rm'] } });
    expect(servers[1]).not.toHaveProperty('timeoutMs');
  });

  test('a disabled entry is not validated further', () => {
    expect(parse({ mcpServers: { 'bad name!': { disabled: true, command: '${UNSET}', bogus: 1 } } })).toEqual([]);
  });

  test('empty server list', () => {
    expect(parse({ mcpServers: {} })).toEqual([]);
  });

  test('keeps file order', () => {
    const names = parse({ mcpServers: { zeta: { command: 'z' }, alpha: { command: 'a' }, mid: { url: 'http://m' } } }).map(
      (s) => s.name,
    );
    expect(names).toEqual(['zeta', 'alpha', 'mid']);
  });
});

describe('parseMcpConfig: paths', () => {
  test('relative cwd resolves against baseDir; absolute stays', () => {
    const [a, b] = parse({ mcpServers: { a: { command: 'x', cwd: 'sub/dir' }, b: { command: 'x', cwd: '/abs' } } });
    expect(a).toMatchObject({ cwd: join(BASE, 'sub/dir') });
    expect(b).toMatchObject({ cwd: resolve('/abs') });
  });

  test('relative command with a slash resolves against baseDir; bare command does not', () => {
    const [a, b, c] = parse({
      mcpServers: { a: { command: './server.js' }, b: { command: 'bin/srv' }, c: { command: 'uvx' } },
    });
    expect(a).toMatchObject({ command: join(BASE, 'server.js') });
    expect(b).toMatchObject({ command: join(BASE, 'bin/srv') });
    expect(c).toMatchObject({ command: 'uvx' });
  });

  test('cwd after expansion', () => {
    const [a] = parse({ mcpServers: { a: { command: 'x', cwd: '${ROOT}/tools' } } }, { ROOT: '/opt' });
    expect(a).toMatchObject({ cwd: resolve('/opt/tools') });
  });
});

describe('parseMcpConfig: validation errors', () => {
  test('the example from the brief', () => {
    const err = configError(() => parse({ mcpServers: { weather: { url: 'htp:/x' } } }));
    expect(err.message).toContain('mcp.json: server "weather": "url" is not a valid URL: "htp:/x"');
    expect(err.field).toBe('url');
  });

  test.each(['ftp://example.com', 'file:///etc/passwd', 'not a url', '/relative', 'http://'])('bad url %s', (url) => {
    expect(() => parse({ mcpServers: { s: { url } } })).toThrow(/"url" is not a valid URL/);
  });

  test('bad url after expansion shows the raw value, not the expanded one', () => {
    const err = configError(() => parse({ mcpServers: { s: { url: '${U}' } } }, { U: 'mailto:secret@x' }));
    expect(err.message).toContain('"${U}" (after ${...} expansion)');
    expect(err.message).not.toContain('secret');
  });

  test.each<[string, unknown, RegExp]>([
    ['not an object', [], /must be a JSON object with "mcpServers" or "servers", not an array/],
    ['null', null, /not null/],
    ['neither key', { other: {} }, /has neither "mcpServers".*nor "servers"/],
    ['both keys', { mcpServers: {}, servers: {} }, /has both "mcpServers" and "servers"/],
    ['servers not an object', { mcpServers: [] }, /"mcpServers" must be an object of servers by name, not an array/],
  ])('top level: %s', (_label, json, pattern) => {
    const err = configError(() => parse(json));
    expect(err.message).toMatch(/^mcp\.json: /);
    expect(err.message).toMatch(pattern);
    expect(err.server).toBeUndefined();
  });

  test.each<[string, unknown, string | undefined, RegExp]>([
    ['server not an object', 'npx srv', undefined, /must be an object, not a string/],
    ['unknown keys', { command: 'x', transport: 'stdio', autoApprove: [] }, undefined, /unknown keys "transport", "autoApprove"; known keys are type, command/],
    ['one unknown key', { command: 'x', foo: 1 }, undefined, /unknown key "foo";/],
    ['envFile', { command: 'x', envFile: '.env' }, 'envFile', /"envFile" is not supported/],
    ['neither command nor url', { args: [] }, 'command', /"command" is missing: a server needs "command" \(stdio\) or "url" \(HTTP\)/],
    ['both command and url', { command: 'x', url: 'http://x' }, undefined, /has both "command" \(stdio\) and "url" \(HTTP\)/],
    ['args not an array', { command: 'x', args: '--a' }, 'args', /"args" must be an array of strings, not a string/],
    ['args item not a string', { command: 'x', args: ['a', 1] }, 'args[1]', /"args\[1\]" must be a string, not a number/],
    ['env not an object', { command: 'x', env: ['A=1'] }, 'env', /"env" must be an object of string values, not an array/],
    ['env value not a string', { command: 'x', env: { PORT: 8080 } }, 'env.PORT', /"env.PORT" must be a string, not a number/],
    ['headers not an object', { url: 'http://x', headers: 'a' }, 'headers', /"headers" must be an object of string values/],
    ['header value not a string', { url: 'http://x', headers: { A: null } }, 'headers.A', /must be a string, not null/],
    ['command not a string', { command: ['npx'] }, 'command', /"command" must be a string, not an array/],
    ['empty command', { command: '  ' }, 'command', /"command" must not be empty/],
    ['bad type', { type: 'websocket', url: 'ws://x' }, 'type', /"type" must be one of "stdio", "http", "sse", "streamable-http", not "websocket"/],
    ['type stdio with url', { type: 'stdio', url: 'http://x' }, 'command', /"command" is missing: "type" is "stdio"/],
    ['type http with command', { type: 'http', command: 'x' }, 'url', /"url" is missing: "type" is "http"/],
    ['headers on stdio', { command: 'x', headers: {} }, 'headers', /"headers" applies only to HTTP servers/],
    ['env on http', { url: 'http://x', env: {} }, 'env', /"env" applies only to stdio servers/],
    ['disabled not boolean', { command: 'x', disabled: 'yes' }, 'disabled', /"disabled" must be true or false/],
    ['description not string', { command: 'x', description: 1 }, 'description', /"description" must be a string/],
    ['tools not an object', { command: 'x', tools: ['a'] }, 'tools', /"tools" must be an object/],
    ['tools unknown key', { command: 'x', tools: { only: [] } }, 'tools', /"tools" has unknown key "only"/],
    ['tools.allow not array', { command: 'x', tools: { allow: 'a' } }, 'tools.allow', /must be an array of tool names/],
    ['tools.deny item', { command: 'x', tools: { deny: ['a', ''] } }, 'tools.deny[1]', /must be a non-empty string/],
    ['timeoutMs negative', { command: 'x', timeoutMs: -1 }, 'timeoutMs', /"timeoutMs" must be a whole number of milliseconds/],
    ['protocolVersion 2026 over legacy SSE', { type: 'sse', url: 'https://s.example/sse', protocolVersion: '2026-07-28' }, 'protocolVersion', /cannot be spoken over the legacy SSE transport/],
    ['protocolVersion not spoken', { command: 'x', protocolVersion: '2024-10-07' }, 'protocolVersion', /"protocolVersion" must be one of "2026-07-28", "2025-06-18", "2025-11-25", "2025-03-26", "2024-11-05"/],
    ['timeoutMs fraction', { command: 'x', timeoutMs: 1.5 }, 'timeoutMs', /whole number/],
    ['timeoutMs string', { command: 'x', timeoutMs: '1000' }, 'timeoutMs', /not "1000"/],
    ['timeoutMs too large', { command: 'x', timeoutMs: 2 ** 31 }, 'timeoutMs', /from 1 to 2147483647/],
  ])('server: %s', (_label, entry, field, pattern) => {
    const err = configError(() => parse({ mcpServers: { srv: entry } }));
    expect(err.message).toMatch(/^mcp\.json: server "srv": /);
    expect(err.message).toMatch(pattern);
    expect(err.server).toBe('srv');
    expect(err.field).toBe(field);
  });

  test.each(['', 'has space', 'a/b', 'ünïcode', 'x'.repeat(65)])('bad server name %j', (name) => {
    const err = configError(() => parse({ mcpServers: { [name]: { command: 'x' } } }));
    expect(err.message).toContain(`server ${JSON.stringify(name)}: the server name must be 1 to 64 characters`);
    expect(err.server).toBe(name);
  });

  test.each(['a', 'my.server', 'A_b-9', 'x'.repeat(64)])('good server name %j', (name) => {
    expect(parse({ mcpServers: { [name]: { command: 'x' } } })[0]?.name).toBe(name);
  });
});
