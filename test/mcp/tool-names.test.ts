import { assignClaudeToolNames, type McpToolRef } from '../../src/mcp/tool-names';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

/** Asserts the contract every result must meet, and returns a (server\0name → claude name) map. */
function checkContract(tools: readonly McpToolRef[], names: readonly string[]): Map<string, string> {
  expect(names).toHaveLength(tools.length);
  for (const name of names) expect(name).toMatch(VALID);
  expect(new Set(names).size).toBe(names.length);
  return new Map(tools.map((t, i) => [`${t.server}\0${t.name}`, names[i] as string]));
}

/** Deterministic shuffle (LCG) so failures reproduce. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('assignClaudeToolNames', () => {
  test('valid unique names are kept unchanged', () => {
    const tools = [
      { server: 'weather', name: 'get_weather' },
      { server: 'fs', name: 'read-file' },
      { server: 'fs', name: 'X' },
    ];
    expect(assignClaudeToolNames(tools)).toEqual(['get_weather', 'read-file', 'X']);
  });

  test('empty input', () => {
    expect(assignClaudeToolNames([])).toEqual([]);
  });

  test('a name shared by two servers becomes <server>__<name> on both', () => {
    const tools = [
      { server: 'github', name: 'search' },
      { server: 'brave', name: 'search' },
      { server: 'brave', name: 'summarize' },
    ];
    expect(assignClaudeToolNames(tools)).toEqual(['github__search', 'brave__search', 'summarize']);
  });

  test('server names are sanitised in the prefix', () => {
    const tools = [
      { server: 'my.server', name: 'search' },
      { server: 'other', name: 'search' },
    ];
    expect(assignClaudeToolNames(tools)).toEqual(['my_server__search', 'other__search']);
  });

  test('servers that sanitise alike still get distinct names', () => {
    const tools = [
      { server: 'a.b', name: 'search' },
      { server: 'a_b', name: 'search' },
    ];
    const names = assignClaudeToolNames(tools);
    checkContract(tools, names);
    for (const name of names) expect(name).toMatch(/^a_b__search_[0-9a-f]{8}$/);
  });

  test('invalid characters become _', () => {
    expect(assignClaudeToolNames([{ server: 's', name: 'a.b.c' }])).toEqual(['a_b_c']);
    expect(assignClaudeToolNames([{ server: 's', name: 'get weather now' }])).toEqual(['get_weather_now']);
    // One _ per code point, so an emoji (a surrogate pair) is one _.
    expect(assignClaudeToolNames([{ server: 's', name: 'wetter_für_🌧' }])).toEqual(['wetter_f_r__']);
  });

  test('a sanitised name that collides with a kept name gets a hash; the kept name wins', () => {
    const tools = [
      { server: 's', name: 'a.b.c' },
      { server: 't', name: 'a_b_c' },
    ];
    const names = assignClaudeToolNames(tools);
    expect(names[1]).toBe('a_b_c');
    expect(names[0]).toMatch(/^a_b_c_[0-9a-f]{8}$/);
  });

  test('two sanitised names that collide both get distinct hashes', () => {
    const tools = [
      { server: 's', name: 'a.b' },
      { server: 's', name: 'a b' },
      { server: 's', name: '搜索' },
      { server: 's', name: '天气' },
    ];
    const names = assignClaudeToolNames(tools);
    checkContract(tools, names);
    expect(names[0]).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(names[1]).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(names[2]).toMatch(/^___[0-9a-f]{8}$/);
    expect(names[3]).toMatch(/^___[0-9a-f]{8}$/);
  });

  test('an empty MCP name still gets a valid name', () => {
    expect(assignClaudeToolNames([{ server: 's', name: '' }])).toEqual(['tool']);
  });

  test('a 70-character name is cut to 64 with a hash suffix', () => {
    const long = 'x'.repeat(70);
    const [name] = assignClaudeToolNames([{ server: 's', name: long }]);
    expect(name).toHaveLength(64);
    expect(name).toMatch(new RegExp(`^x{55}_[0-9a-f]{8}$`));
  });

  test('two 70-character names differing only at the end stay distinct', () => {
    const prefix = 'query_the_warehouse_for_inventory_levels_by_region_and_sku_ver';
    const tools = [
      { server: 's', name: `${prefix}sion_1` },
      { server: 's', name: `${prefix}sion_2` },
    ];
    expect(tools[0]?.name).toHaveLength(68);
    const names = assignClaudeToolNames(tools);
    checkContract(tools, names);
    expect(names[0]?.slice(0, 55)).toBe(names[1]?.slice(0, 55));
    expect(names[0]).not.toBe(names[1]);
  });

  test('a shared name whose prefixed form is too long is cut and hashed', () => {
    const name = 'n'.repeat(60);
    const tools = [
      { server: 'alpha', name },
      { server: 'beta', name },
    ];
    const names = assignClaudeToolNames(tools);
    checkContract(tools, names);
    expect(names[0]).toMatch(/^alpha__n+_[0-9a-f]{8}$/);
    expect(names[1]).toMatch(/^beta__n+_[0-9a-f]{8}$/);
  });

  test('a 64-character valid name is kept', () => {
    const name = 'y'.repeat(64);
    expect(assignClaudeToolNames([{ server: 's', name }])).toEqual([name]);
  });

  test('the same (server, name) twice throws', () => {
    expect(() =>
      assignClaudeToolNames([
        { server: 's', name: 'dup' },
        { server: 's', name: 'dup' },
      ]),
    ).toThrow('MCP server "s" lists the tool "dup" more than once');
  });

  test('hashes are stable across runs (fixed expected values)', () => {
    const names = assignClaudeToolNames([
      { server: 's', name: 'a.b' },
      { server: 't', name: 'a_b' },
    ]);
    // If this changes, every conversation's tool names change with it.
    // 32-bit FNV-1a of "s\0a.b".
    expect(names).toEqual(['a_b_505e4fe9', 'a_b']);
    expect(assignClaudeToolNames([{ server: 's', name: 'x'.repeat(70) }])).toEqual([`${'x'.repeat(55)}_e2c83426`]);
    expect(assignClaudeToolNames([{ server: 't', name: 'a_b' }, { server: 's', name: 'a.b' }])[1]).toBe(names[0]);
  });

  describe('a catalogue of 240 tools from 12 servers', () => {
    const servers = ['github', 'gitlab', 'fs', 'brave.search', 'weather', 'db', 'db-2', 'slack', 'jira', 'notion', 'k8s', 'mail'];
    const tools: McpToolRef[] = [];
    for (const server of servers) {
      for (let i = 0; i < 15; i++) tools.push({ server, name: `${server.replace(/\W/g, '')}_tool_${i}` });
      // Shared across all servers.
      for (const name of ['search', 'list', 'get', 'create']) tools.push({ server, name });
      tools.push({ server, name: `${server}.tool with spaces` });
    }

    test('contract holds', () => {
      expect(tools.length).toBe(240);
      const names = assignClaudeToolNames(tools);
      const byRef = checkContract(tools, names);
      expect(byRef.get('github\0search')).toBe('github__search');
      expect(byRef.get('brave.search\0search')).toBe('brave_search__search');
      expect(byRef.get('github\0github_tool_3')).toBe('github_tool_3');
    });

    test('order independent', () => {
      const expected = checkContract(tools, assignClaudeToolNames(tools));
      for (const seed of [1, 2, 3, 42]) {
        const order = shuffled(tools, seed);
        expect(checkContract(order, assignClaudeToolNames(order))).toEqual(expected);
      }
    });

    test('idempotent: same input → same output, and the output names are a fixed point', () => {
      const names = assignClaudeToolNames(tools);
      expect(assignClaudeToolNames(tools)).toEqual(names);
      const renamed = tools.map((t, i) => ({ server: t.server, name: names[i] as string }));
      expect(assignClaudeToolNames(renamed)).toEqual(names);
    });
  });

  test('order independence with collisions, long names and hash tie-breaks', () => {
    const tools: McpToolRef[] = [];
    for (let s = 0; s < 5; s++) {
      for (let i = 0; i < 20; i++) {
        tools.push({ server: `srv${s}`, name: `op.${i % 7}` });
        tools.push({ server: `srv${s}`, name: `${'long_name_'.repeat(7)}${i}` });
      }
      tools.push({ server: `srv${s}`, name: 'common' });
    }
    const unique = [...new Map(tools.map((t) => [`${t.server}\0${t.name}`, t])).values()];
    const expected = checkContract(unique, assignClaudeToolNames(unique));
    for (const seed of [7, 8, 9]) {
      const order = shuffled(unique, seed);
      expect(checkContract(order, assignClaudeToolNames(order))).toEqual(expected);
    }
  });
});
