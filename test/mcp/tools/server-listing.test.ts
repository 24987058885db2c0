/**
 * One server's listing against real servers: a 2026-07-28 Streamable HTTP server on the SDK v2
 * (test/fixtures/tools-2026-server.ts) and a 2025 stdio server (scenario-server): the caching hint,
 * tools with invalid `x-mcp-header` marks left out (with a warning), and the call-time definitions
 * recorded in the pool.
 */
import { McpConnections } from '../../../src/mcp/mcp-connections';
import { listServer } from '../../../src/mcp/tools/server-listing';
import { scenarioServer } from '../../fixtures/reference-servers';
import { startTools2026Server, type Tools2026Server } from '../../fixtures/tools-2026-server';

describe('listServer', () => {
  let server: Tools2026Server;
  const logs: string[] = [];
  let pool: McpConnections;
  beforeAll(async () => {
    // The SDK server warns about the invalid tool it serves: not this test's output.
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    server = await startTools2026Server({ listTtlMs: 5000 });
    pool = new McpConnections(
      [{ name: 'w', transport: 'http', url: server.url, headers: {}, tools: {}, oauth: false }, scenarioServer('legacy', { SCENARIO_TOOLS: 'structured|plain' })],
      (line) => logs.push(line),
    );
  });
  afterAll(async () => {
    await pool.closeAll();
    await server.close();
    jest.restoreAllMocks();
  });

  test('2026-07-28 over HTTP: the ttlMs hint, and a tool with an invalid x-mcp-header left out with a warning naming it', async () => {
    const listing = await listServer(pool, pool.server('w'));
    expect(listing.ttlMs).toBe(5000);
    expect(listing.tools.map((tool) => tool.name)).toEqual(['forecast', 'measure', 'wildcard']);
    expect(logs).toContainEqual(expect.stringMatching(/^\[mcp:w\] warning: tool "bad_header" left out: invalid x-mcp-header \(property tags: .*not "array"\)/));
  });

  test('the definitions a call needs are recorded: header parameters and the output schema', async () => {
    await listServer(pool, pool.server('w'));
    expect(pool.toolDefinitions.get('w', 'forecast')).toEqual({
      headerParams: [
        { path: ['region'], name: 'Region', type: 'string' },
        { path: ['days'], name: 'Days', type: 'integer' },
      ],
    });
    expect(pool.toolDefinitions.get('w', 'measure')).toMatchObject({ headerParams: [], outputSchema: { type: 'object', required: ['t'] } });
    expect(pool.toolDefinitions.get('w', 'bad_header')).toBeUndefined();
  });

  test('a 2026-07-28 server that sends no ttlMs (the SDK default sends 0) is immediately stale', async () => {
    server.settings.listTtlMs = undefined;
    try {
      expect((await listServer(pool, pool.server('w'))).ttlMs).toBe(0);
    } finally {
      server.settings.listTtlMs = 5000;
    }
  });

  test('a 2025 server has no caching hint: its listing holds until list_changed', async () => {
    const listing = await listServer(pool, pool.server('legacy'));
    expect(listing.ttlMs).toBeUndefined();
    expect(pool.toolDefinitions.hasListed('legacy')).toBe(true);
    expect(pool.toolDefinitions.get('legacy', 'structured')?.outputSchema).toEqual({ type: 'object', properties: { t: { type: 'number' } }, required: ['t'] });
  });
});
