/**
 * Fast tools (src/mcp/fast-tools.ts): `fast` and `fastTools` in mcp.json, read with clear errors,
 * and written into the catalogue's routes (over real stdio servers) only for the tools they name, so
 * routes and digests of servers without them are unchanged.
 */
import { toolRouteEntries } from '../../src/conversation/tool-routes';
import type { ToolRoute } from '../../src/conversation/types';
import { isFastTool } from '../../src/mcp/fast-tools';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { buildToolCatalog } from '../../src/mcp/tool-catalog';
import type { McpServerConfig } from '../../src/mcp/config';
import { scenarioServer } from '../fixtures/reference-servers';
import { configError, parse } from './config/parse-helpers';

describe('isFastTool', () => {
  test('fast: true makes every tool fast; fastTools names some; neither: none', () => {
    expect(isFastTool({ fast: true }, 'anything')).toBe(true);
    expect(isFastTool({ fastTools: ['read_file'] }, 'read_file')).toBe(true);
    expect(isFastTool({ fastTools: ['read_file'] }, 'write_file')).toBe(false);
    expect(isFastTool({ fast: false, fastTools: ['read_file'] }, 'read_file')).toBe(true);
    expect(isFastTool({ fast: false }, 'read_file')).toBe(false);
    expect(isFastTool({}, 'constructor')).toBe(false);
  });
});

describe('fast and fastTools in mcp.json', () => {
  test('read on stdio and HTTP entries; absent means no keys at all', () => {
    const [a, b, c, d] = parse({
      mcpServers: {
        a: { command: 'a', fast: true },
        b: { url: 'http://localhost/mcp', fastTools: ['get', 'list'] },
        c: { command: 'c', fast: false, fastTools: [] },
        d: { command: 'd' },
      },
    });
    expect(a).toMatchObject({ transport: 'stdio', fast: true });
    expect(a).not.toHaveProperty('fastTools');
    expect(b).toMatchObject({ transport: 'http', fastTools: ['get', 'list'] });
    expect(b).not.toHaveProperty('fast');
    expect(c).toMatchObject({ fast: false, fastTools: [] });
    expect(d).not.toHaveProperty('fast');
    expect(d).not.toHaveProperty('fastTools');
  });

  test.each([
    ['fast not a boolean', { command: 'x', fast: 'yes' }, 'fast', /"fast" must be true or false, not "yes"/],
    ['fast a number', { command: 'x', fast: 1 }, 'fast', /"fast" must be true or false, not 1/],
    ['fastTools not an array', { command: 'x', fastTools: 'read_file' }, 'fastTools', /"fastTools" must be an array of tool names, like \["read_file"\], not a string/],
    ['fastTools an object', { command: 'x', fastTools: { read_file: true } }, 'fastTools', /"fastTools" must be an array of tool names/],
    ['fastTools with a number', { command: 'x', fastTools: ['a', 2] }, 'fastTools[1]', /"fastTools\[1\]" must be a non-empty string \(a tool name\), not 2/],
    ['fastTools with an empty name', { command: 'x', fastTools: [''] }, 'fastTools[0]', /"fastTools\[0\]" must be a non-empty string \(a tool name\), not ""/],
  ])('%s is a clear config error', (_label, entry, field, pattern) => {
    const err = configError(() => parse({ mcpServers: { srv: entry } }));
    expect(err.message).toMatch(/^mcp\.json: server "srv": /);
    expect(err.message).toMatch(pattern);
    expect(err.field).toBe(field);
  });

  test('a misspelt key is still an unknown key, and the known keys name fast and fastTools', () => {
    const err = configError(() => parse({ mcpServers: { srv: { command: 'x', fastTool: ['a'] } } }));
    expect(err.message).toMatch(/unknown key "fastTool"; known keys are .*approval, toolApproval, fast, fastTools/);
  });
});

describe('fast tools in the catalogue (real stdio servers)', () => {
  const tools = { SCENARIO_TOOLS: 'read|write' };

  async function routesOf(servers: McpServerConfig[]): Promise<{ digest: string; routes: Array<[string, ToolRoute]> }> {
    const connections = new McpConnections(servers, () => undefined);
    try {
      const catalog = await buildToolCatalog(connections);
      return { digest: catalog.digest, routes: toolRouteEntries(catalog) };
    } finally {
      await connections.closeAll();
    }
  }

  test('routes carry fast: true for the tools named, and no fast key otherwise (digests of configs without fast unchanged)', async () => {
    const plain = await routesOf([scenarioServer('s', tools)]);
    const notFast = await routesOf([scenarioServer('s', tools, { fast: false, fastTools: [] })]);
    const allFast = await routesOf([scenarioServer('s', tools, { fast: true })]);
    const someFast = await routesOf([scenarioServer('s', tools, { fastTools: ['write', 'not_listed'] })]);

    for (const [, route] of plain.routes) expect(route).not.toHaveProperty('fast');
    expect(notFast).toEqual(plain);
    expect(allFast.routes.map(([name, route]) => [name, route.fast])).toEqual([
      ['read', true],
      ['write', true],
    ]);
    expect(someFast.routes.map(([name, route]) => [name, route.fast])).toEqual([
      ['read', undefined],
      ['write', true],
    ]);
    expect(someFast.routes[0]?.[1]).not.toHaveProperty('fast');
    expect(allFast.digest).not.toBe(plain.digest);
    expect(someFast.digest).not.toBe(allFast.digest);
  }, 60_000);
});
