/**
 * The tool catalogue over real stdio servers (test/fixtures/scenario-server.ts): paging, merging,
 * names valid for Claude that map back to the exact MCP names, allow/deny, tools and servers the host
 * leaves out (with warnings), list_changed, and the handshake as the server received it.
 * Rule ids (S…) refer to shared/seed/RULES.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findToolRoute, toolRouteEntries } from '../../src/conversation/tool-routes';
import type { ToolCatalog, ToolRoute } from '../../src/conversation/types';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { buildToolCatalog, ToolCatalogCache } from '../../src/mcp/tool-catalog';
import { callToolActivity as callTool, failureOf } from '../fixtures/mock-activities';
import { scenarioServer } from '../fixtures/reference-servers';
import { REPO_ROOT } from '../support/repo';

/** A working directory for a server that is not the repo's root (tsx is still found from there). */
const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures');
/** A 70-character MCP tool name: longer than Claude's 64. */
const LONG = `summarise_${'very_'.repeat(12)}`;
/** Valid tool names that are also keys of every plain object's prototype. */
const PROTOTYPE_NAMES = ['__proto__', 'constructor'] as const;

function claudeNameOf(catalog: ToolCatalog, server: string, tool: string): string {
  const found = toolRouteEntries(catalog).find(([, route]) => route.server === server && route.name === tool);
  if (!found) throw new Error(`no route to ${server}/${tool}`);
  return found[0];
}

/** The route the workflow finds for a Claude tool name. */
const routeOf = findToolRoute;

/** Every route of the catalogue. */
function routesOf(catalog: ToolCatalog): ToolRoute[] {
  return toolRouteEntries(catalog).map(([, route]) => route);
}

describe('tool catalogue (S4, S5)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-catalog-'));
  const logs: string[] = [];
  let connections: McpConnections;
  let catalog: ToolCatalog;

  beforeAll(async () => {
    expect(LONG).toHaveLength(70);
    connections = new McpConnections(
      [
        // 211 tools, 7 per page: 31 tools/list requests.
        scenarioServer('pages', { SCENARIO_TOOLS: 'search', SCENARIO_GENERATED: '210', SCENARIO_PAGE_SIZE: '7' }),
        scenarioServer(
          'names',
          { SCENARIO_TOOLS: ['search', 'a.b.c', LONG, 'bad_schema', 'dup', 'task_only', 'whoami', 'hidden', 'add_tool', ...PROTOTYPE_NAMES].join('|'), SCENARIO_SECRET: 's3cret' },
          { tools: { deny: ['hidden'] }, cwd: FIXTURES },
        ),
        scenarioServer('picky', { SCENARIO_TOOLS: 'one|two|three' }, { tools: { allow: ['two'] } }),
        { name: 'missing', transport: 'stdio', command: path.join(dir, 'no-such-server'), args: [], env: {}, tools: {} },
      ],
      (line) => logs.push(line),
    );
    catalog = await buildToolCatalog(connections);
  });
  afterAll(async () => {
    await connections?.closeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every page of every server is merged; names are valid for Claude and distinct', () => {
    const names = catalog.tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const fromPages = routesOf(catalog).filter((route) => route.server === 'pages');
    expect(fromPages).toHaveLength(211);
    // Each server's tools by name (code-unit order), whatever order the server listed them in.
    expect(fromPages.map((route) => route.name)).toEqual([...Array.from({ length: 210 }, (_, i) => `gen_${String(i).padStart(3, '0')}`), 'search']);
    expect(toolRouteEntries(catalog).map(([name]) => name)).toEqual(names);
    // names: search, a.b.c, LONG, dup, task_only, whoami, add_tool, __proto__, constructor; picky: two.
    expect(catalog.tools).toHaveLength(211 + 9 + 1);
  });

  test('a name two servers share, a dotted name and a 70-character name all map back exactly', async () => {
    expect(claudeNameOf(catalog, 'pages', 'search')).toBe('pages__search');
    expect(claudeNameOf(catalog, 'names', 'search')).toBe('names__search');
    expect(claudeNameOf(catalog, 'names', 'a.b.c')).toBe('a_b_c');
    const long = claudeNameOf(catalog, 'names', LONG);
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^summarise_very_.*_[0-9a-f]{8}$/);
    for (const [server, tool] of [['pages', 'search'], ['names', 'search'], ['names', 'a.b.c'], ['names', LONG], ['pages', 'gen_000'], ['pages', 'gen_209']] as const) {
      const route = routeOf(catalog, claudeNameOf(catalog, server, tool));
      const out = await callTool(connections, route!.server, route!.name, { q: 1 });
      expect(out).toEqual({ content: `called ${tool} {"q":1}`, isError: false, truncatedChars: 0 });
    }
  });

  test('tools named __proto__ and constructor are offered, routed and callable like any other; no other name gains a route', async () => {
    for (const tool of PROTOTYPE_NAMES) {
      expect(catalog.tools.filter((offered) => offered.name === tool)).toHaveLength(1);
      expect(claudeNameOf(catalog, 'names', tool)).toBe(tool);
      const route = routeOf(catalog, tool);
      expect(route).toEqual({ server: 'names', name: tool, idempotent: false, timeoutMs: 60_000 });
      const out = await callTool(connections, route!.server, route!.name, { q: 2 });
      expect(out).toEqual({ content: `called ${tool} {"q":2}`, isError: false, truncatedChars: 0 });
    }
    // Names Claude was not given find nothing, whatever an object's prototype holds.
    for (const name of ['toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) expect(routeOf(catalog, name)).toBeUndefined();
    // The catalogue survives the JSON round trip of a Temporal payload unchanged.
    const copy = JSON.parse(JSON.stringify(catalog)) as ToolCatalog;
    expect(copy).toEqual(catalog);
    for (const tool of PROTOTYPE_NAMES) expect(routeOf(copy, tool)).toEqual(routeOf(catalog, tool));
  });

  test('allow and deny lists: excluded tools are neither offered nor callable', async () => {
    expect(routesOf(catalog).filter((route) => route.server === 'picky').map((route) => route.name)).toEqual(['two']);
    expect(routesOf(catalog).some((route) => route.name === 'hidden')).toBe(false);
    const denied = await failureOf(callTool(connections, 'names', 'hidden'));
    expect(denied).toMatchObject({ type: 'mcp.tool_denied', nonRetryable: true });
  });

  test('tools the host cannot offer and a server that cannot start are left out with a warning; the rest stands (a task-only tool is offered)', () => {
    const warnings = logs.filter((line) => line.includes('warning:'));
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\[mcp:names\] warning: tool "bad_schema" left out: its definition is invalid/),
        expect.stringMatching(/^\[mcp:names\] warning: tool "dup" left out: listed more than once/),
        expect.stringMatching(/^\[mcp:missing\] warning: its tools are left out of this turn's catalogue: cannot connect/),
      ]),
    );
    expect(catalog.tools.some((tool) => tool.name === 'bad_schema')).toBe(false);
    expect(catalog.tools.filter((tool) => tool.name === 'dup')).toHaveLength(1);
    // A task-only tool is offered: its calls run as MCP tasks (src/mcp/tasks), its task support recorded.
    expect(warnings.some((line) => line.includes('"task_only"'))).toBe(false);
    expect(catalog.tools.filter((tool) => tool.name === 'task_only')).toHaveLength(1);
    expect(connections.toolDefinitions.get('names', 'task_only')).toMatchObject({ taskSupport: 'required' });
  });

  test('the handshake as the server saw it: initialize asking for 2025-06-18, then initialized, then tools/list (S3); env and cwd reach the process', async () => {
    const out = await callTool(connections, 'names', 'whoami');
    const who = JSON.parse(out.content as string) as { pid: number; cwd: string; secret: string; received: Array<{ method?: string; params?: Record<string, unknown> }> };
    expect(who.received.map((m) => m.method)).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(who.received[0]?.params).toMatchObject({ protocolVersion: '2025-06-18', clientInfo: { name: 'durable-mcp-host' }, capabilities: {} });
    expect(who.secret).toBe('s3cret');
    expect(who.cwd).toBe(FIXTURES);
    expect(who.pid).toBe(connections.pid('names'));
    expect(logs).toContain(`[mcp:names] scenario-server ${who.pid} ready`);
  });

  test('the cache lists again only after notifications/tools/list_changed; a server left out is tried again', async () => {
    const cache = new ToolCatalogCache(connections);
    const first = await cache.current();
    // "missing" failed, so the catalogue is incomplete and not kept.
    const second = await cache.current();
    expect(second).not.toBe(first);
    expect(second.digest).toBe(first.digest);
    expect(first.tools.some((tool) => tool.name === 'added_later')).toBe(false);

    await callTool(connections, 'names', 'add_tool');
    const third = await cache.current();
    expect(third.tools.some((tool) => tool.name === 'added_later')).toBe(true);
    expect(third.digest).not.toBe(first.digest);
  });

  test('a complete catalogue is kept until a tool list may have changed, and one build serves concurrent turns', async () => {
    const pool = new McpConnections([scenarioServer('solo', { SCENARIO_TOOLS: 'x|add_tool' })], () => undefined);
    try {
      const cache = new ToolCatalogCache(pool);
      const [a, b] = await Promise.all([cache.current(), cache.current()]);
      expect(b).toBe(a);
      expect(await cache.current()).toBe(a);
      await callTool(pool, 'solo', 'add_tool');
      const c = await cache.current();
      expect(c).not.toBe(a);
      expect(c.tools.map((tool) => tool.name)).toEqual(['add_tool', 'added_later', 'x']);
    } finally {
      await pool.closeAll();
    }
  });

  test('MCP annotations from tools/list decide whether a tool may be repeated: idempotentHint or readOnlyHint (issue 13 item 3)', async () => {
    const pool = new McpConnections(
      [scenarioServer('hints', { SCENARIO_TOOLS: 'plain|same_again|look|both', SCENARIO_IDEMPOTENT: 'same_again|both', SCENARIO_READONLY: 'look|both' })],
      () => undefined,
    );
    try {
      const built = await buildToolCatalog(pool);
      const idempotent = Object.fromEntries(['plain', 'same_again', 'look', 'both'].map((tool) => [tool, routeOf(built, tool)?.idempotent]));
      expect(idempotent).toEqual({ plain: false, same_again: true, look: true, both: true });
    } finally {
      await pool.closeAll();
    }
  });

  test('when no server can be listed, listing fails (and the activity is retried)', async () => {
    const pool = new McpConnections([{ name: 'gone', transport: 'stdio', command: path.join(dir, 'nothing-here'), args: [], env: {}, tools: {} }], () => undefined);
    try {
      await expect(buildToolCatalog(pool)).rejects.toThrow(/no MCP server could be listed: "gone": cannot connect to MCP server "gone"/);
    } finally {
      await pool.closeAll();
    }
  });
});
