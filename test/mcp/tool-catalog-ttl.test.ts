/**
 * The worker's catalogue cache and MCP 2026-07-28 caching (`ttlMs` on `tools/list`): a listing is
 * reused while fresh and listed again once its ttl passes, a ttl of 0 (the default) lists again
 * every time, each server on its own, and the merged catalogue keeps its digest while the tools do
 * not change. Real SDK v2 servers over Streamable HTTP (test/fixtures/tools-2026-server.ts).
 */
import { McpConnections } from '../../src/mcp/mcp-connections';
import { ToolCatalogCache } from '../../src/mcp/tool-catalog';
import { startTools2026Server, type Tools2026Server } from '../fixtures/tools-2026-server';

function listings(server: Tools2026Server): number {
  return server.received.filter((request) => request.method === 'tools/list').length;
}

describe('ToolCatalogCache with ttlMs', () => {
  let slow: Tools2026Server;
  let volatile: Tools2026Server;
  let pool: McpConnections;
  let now = 1_000_000;
  const clock = (): number => now;

  beforeAll(async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    slow = await startTools2026Server({ listTtlMs: 60_000 });
    volatile = await startTools2026Server();
    pool = new McpConnections(
      [
        { name: 'slow', transport: 'http', url: slow.url, headers: {}, tools: {}, oauth: false },
        { name: 'volatile', transport: 'http', url: volatile.url, headers: {}, tools: {}, oauth: false },
      ],
      () => undefined,
    );
  });
  afterAll(async () => {
    await pool.closeAll();
    await Promise.all([slow.close(), volatile.close()]);
    jest.restoreAllMocks();
  });

  test('a listing is reused until its ttl passes; one with ttl 0 is listed again each time; the digest holds', async () => {
    const cache = new ToolCatalogCache(pool, clock);
    const first = await cache.current();
    expect(first.tools).toHaveLength(6);
    expect([listings(slow), listings(volatile)]).toEqual([1, 1]);

    now += 1000;
    const second = await cache.current();
    // The volatile server (no hint: ttl 0) is asked again; the slow one's listing is still fresh.
    expect([listings(slow), listings(volatile)]).toEqual([1, 2]);
    expect(second.digest).toBe(first.digest);

    now += 60_000;
    await cache.current();
    expect([listings(slow), listings(volatile)]).toEqual([2, 3]);
  });

  test('a catalogue whose every listing is fresh is served without a request', async () => {
    volatile.settings.listTtlMs = 30_000;
    try {
      const cache = new ToolCatalogCache(pool, clock);
      const first = await cache.current();
      const before = [listings(slow), listings(volatile)];
      now += 29_000;
      expect(await cache.current()).toBe(first);
      expect([listings(slow), listings(volatile)]).toEqual(before);
      now += 2000;
      const after = await cache.current();
      expect(after).not.toBe(first);
      expect(after.digest).toBe(first.digest);
      expect([listings(slow), listings(volatile)]).toEqual([before[0], (before[1] ?? 0) + 1]);
    } finally {
      volatile.settings.listTtlMs = undefined;
    }
  });
});
