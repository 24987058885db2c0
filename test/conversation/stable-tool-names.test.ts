import { digestOf } from '../../src/conversation/digest';
import { listedDigestOf, withStableToolNames, type GivenToolNames } from '../../src/conversation/stable-tool-names';
import { findToolRoute } from '../../src/conversation/tool-routes';
import type { ToolCatalog, ToolRouteEntry } from '../../src/conversation/types';

function catalog(entries: Array<[claudeName: string, server: string, mcpName: string]>): ToolCatalog {
  const tools = entries.map(([name]) => ({ name, description: name, input_schema: { type: 'object' as const } }));
  const routes = entries.map(([name, server, mcpName]): ToolRouteEntry => [name, { server, name: mcpName, idempotent: false, timeoutMs: 1000 }]);
  return { digest: digestOf([tools, routes]), tools, routes };
}

const names = (c: ToolCatalog): string[] => c.tools.map((t) => t.name);

describe('stable tool names', () => {
  test('the first catalogue is kept as listed, and its names are given out', () => {
    const listed = catalog([['a__add', 'a', 'add'], ['b__add', 'b', 'add']]);
    const { catalog: kept, given } = withStableToolNames(listed, []);
    expect(kept).toBe(listed);
    expect(given).toEqual([['a', 'add', 'a__add'], ['b', 'add', 'b__add']]);
  });

  test('a colliding server drops out and comes back: the names do not move', () => {
    let given: GivenToolNames = withStableToolNames(catalog([['a__add', 'a', 'add'], ['b__add', 'b', 'add']]), []).given;
    const onlyA = catalog([['add', 'a', 'add']]);
    const renamed = withStableToolNames(onlyA, given);
    expect(names(renamed.catalog)).toEqual(['a__add']);
    expect(findToolRoute(renamed.catalog, 'a__add')).toMatchObject({ server: 'a', name: 'add' });
    expect(findToolRoute(renamed.catalog, 'add')).toBeUndefined();
    // The digest is the renamed catalogue's own; listTools is asked about the listed one.
    expect(renamed.catalog.digest).toBe(digestOf([renamed.catalog.tools, renamed.catalog.routes]));
    expect(listedDigestOf(renamed.catalog)).toBe(onlyA.digest);
    given = renamed.given;
    expect(names(withStableToolNames(catalog([['a__add', 'a', 'add'], ['b__add', 'b', 'add']]), given).catalog)).toEqual(['a__add', 'b__add']);
  });

  test('a new tool never takes a name the conversation gave another tool', () => {
    const { given } = withStableToolNames(catalog([['search', 'a', 'search']]), []);
    // Server a is gone; server c lists its own `search`, which the MCP layer names `search`.
    const next = withStableToolNames(catalog([['search', 'c', 'search']]), given);
    const [name] = names(next.catalog);
    expect(name).toMatch(/^search_[0-9a-f]{8}$/);
    expect(next.given).toEqual([['a', 'search', 'search'], ['c', 'search', name]]);
    // Deterministic: the same inputs give the same name.
    expect(names(withStableToolNames(catalog([['search', 'c', 'search']]), given).catalog)).toEqual([name]);
  });
});
