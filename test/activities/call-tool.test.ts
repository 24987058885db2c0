/**
 * The `callTool` activity and what it takes from the tool's listing: `Mcp-Param-*` headers on a
 * 2026-07-28 Streamable HTTP connection (SEP-2243), the call sent once more after a HeaderMismatch
 * (-32020) with the server listed again, and `structuredContent` checked against the tool's
 * `outputSchema` (a mismatch is an `is_error` result Claude sees, never a failure). Real servers:
 * test/fixtures/tools-2026-server.ts (SDK v2, which checks the headers itself) and the stdio
 * scenario-server (2025, whose `structured` tool can answer off its own schema).
 */
import { McpConnections } from '../../src/mcp/mcp-connections';
import { buildToolCatalog } from '../../src/mcp/tool-catalog';
import { callToolActivity as callTool } from '../fixtures/mock-activities';
import { scenarioServer } from '../fixtures/reference-servers';
import { startTools2026Server, type Tools2026Server } from '../fixtures/tools-2026-server';

describe('callTool and the Mcp-Param-* headers (2026-07-28 Streamable HTTP)', () => {
  let server: Tools2026Server;
  beforeAll(async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    server = await startTools2026Server();
  });
  afterAll(async () => {
    await server.close();
    jest.restoreAllMocks();
  });
  const pool = (): McpConnections => new McpConnections([{ name: 'w', transport: 'http', url: server.url, headers: {}, tools: {}, oauth: false }], () => undefined);
  const calls = (): Array<Record<string, string>> => server.received.filter((request) => request.method === 'tools/call').map((request) => request.headers);

  test('the marked arguments go out as headers, encoded where needed, and the server accepts the call', async () => {
    const connections = pool();
    try {
      await buildToolCatalog(connections);
      const out = await callTool(connections, 'w', 'forecast', { region: 'Zürich', days: 3, note: 'not mirrored' });
      expect(out).toEqual({ content: 'forecast Zürich 3', isError: false, truncatedChars: 0 });
      expect(calls().at(-1)).toMatchObject({
        'mcp-method': 'tools/call',
        'mcp-name': 'forecast',
        'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
        'mcp-param-days': '3',
      });
      expect(Object.keys(calls().at(-1) ?? {}).filter((name) => name.startsWith('mcp-param-'))).toHaveLength(2);
    } finally {
      await connections.closeAll();
    }
  });

  test('a worker that has not listed the server lists it before its first call, once', async () => {
    const connections = pool();
    try {
      const before = server.received.filter((request) => request.method === 'tools/list').length;
      await callTool(connections, 'w', 'forecast', { region: 'eu' });
      await callTool(connections, 'w', 'forecast', { region: 'us' });
      expect(server.received.filter((request) => request.method === 'tools/list').length).toBe(before + 1);
      expect(calls().at(-1)).toMatchObject({ 'mcp-param-region': 'us' });
    } finally {
      await connections.closeAll();
    }
  });

  test('refused for its headers (-32020, the schema changed since the listing): listed again and sent once more', async () => {
    const connections = pool();
    try {
      await buildToolCatalog(connections);
      server.settings.headerNames = { region: 'Zone', days: 'Days' };
      const lists = server.received.filter((request) => request.method === 'tools/list').length;
      const out = await callTool(connections, 'w', 'forecast', { region: 'eu', days: 1 });
      expect(out).toEqual({ content: 'forecast eu 1', isError: false, truncatedChars: 0 });
      const [refused, accepted] = calls().slice(-2);
      expect(refused).toMatchObject({ 'mcp-param-region': 'eu' });
      expect(accepted).toMatchObject({ 'mcp-param-zone': 'eu', 'mcp-param-days': '1' });
      expect(server.received.filter((request) => request.method === 'tools/list').length).toBe(lists + 1);
    } finally {
      server.settings.headerNames = { region: 'Region', days: 'Days' };
      await connections.closeAll();
    }
  });

  test('structured content that matches the output schema passes as content', async () => {
    const connections = pool();
    try {
      expect(await callTool(connections, 'w', 'measure')).toEqual({ content: '{"t":21.5}', isError: false, truncatedChars: 0 });
    } finally {
      await connections.closeAll();
    }
  });
});

describe('callTool and the tool\'s outputSchema', () => {
  const connections = new McpConnections([scenarioServer('s', { SCENARIO_TOOLS: 'structured|structured_remote' })], () => undefined);
  beforeAll(async () => {
    await buildToolCatalog(connections);
  });
  afterAll(() => connections.closeAll());

  test('a result that matches passes unchanged', async () => {
    expect(await callTool(connections, 's', 'structured', { mode: 'good' })).toEqual({ content: '{"t":21.5}', isError: false, truncatedChars: 0 });
  });

  test('a result off its own schema becomes a tool error naming the mismatch, not a failure', async () => {
    const out = await callTool(connections, 's', 'structured', { mode: 'bad' });
    expect(out.isError).toBe(true);
    expect(out.content).toBe(
      'The tool "structured" of MCP server "s" returned a result that does not match its declared output schema, so it was not used: ' +
        "structuredContent does not match the tool's outputSchema: structuredContent/t must be number",
    );
  });

  test('a result without the structured content its schema declares is a tool error too; an error result is not checked', async () => {
    const none = await callTool(connections, 's', 'structured', { mode: 'none' });
    expect(none).toMatchObject({ isError: true, content: expect.stringContaining('the tool declares an outputSchema but its result has no structuredContent') });
    expect(await callTool(connections, 's', 'structured', { mode: 'error' })).toEqual({ content: 'the sensor is offline', isError: true, truncatedChars: 0 });
  });

  test('an output schema that cannot be used (a network $ref, never fetched) leaves results unchecked', async () => {
    expect(await callTool(connections, 's', 'structured_remote', { mode: 'bad' })).toEqual({ content: '{"t":"hot"}', isError: false, truncatedChars: 0 });
  });
});
