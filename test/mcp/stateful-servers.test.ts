/**
 * Why the host needs MCP servers whose state outlives their process (README, "Stateful MCP
 * servers"): a conversation's tool calls go to whichever worker takes them, over a connection that
 * may be reopened (a crash, an idle close, a lost HTTP session), so state a server keeps in its own
 * process is split across workers and lost on reconnect, while state it keeps in its own storage is
 * seen by every call. Two pools stand for two workers; real servers: the reference memory server
 * (its graph in a file) and the scenario server's in-process `remember`/`recall`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { callToolActivity as callTool } from '../fixtures/mock-activities';
import { memoryServer, scenarioServer } from '../fixtures/reference-servers';

describe('stateful MCP servers across workers and reconnects', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-stateful-'));
  const memoryFile = path.join(dir, 'memory.jsonl');
  const servers = [memoryServer(memoryFile), scenarioServer('notes', { SCENARIO_TOOLS: 'remember|recall' })];
  const workerA = new McpConnections(servers, () => undefined);
  const workerB = new McpConnections(servers, () => undefined);

  afterAll(async () => {
    await Promise.all([workerA.closeAll(), workerB.closeAll()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const text = (out: { content: unknown }): string => JSON.stringify(out.content);

  test("state the server keeps in its own storage (the memory server's file): every worker sees it, and it survives a reconnect", async () => {
    await callTool(workerA, 'memory', 'create_entities', { entities: [{ name: 'Shanghai', entityType: 'city', observations: ['rainy, 18°C'] }] });
    expect(text(await callTool(workerB, 'memory', 'search_nodes', { query: 'Shanghai' }))).toContain('rainy, 18°C');
    workerA.reset('memory');
    expect(text(await callTool(workerA, 'memory', 'search_nodes', { query: 'Shanghai' }))).toContain('rainy, 18°C');
  }, 60_000);

  test('state the server keeps in its process: another worker does not have it, and a reconnect loses it', async () => {
    expect(text(await callTool(workerA, 'notes', 'remember', { value: 'the user prefers Celsius' }))).toContain('remembered');
    expect(text(await callTool(workerA, 'notes', 'recall'))).toContain('recalled the user prefers Celsius');
    expect(text(await callTool(workerB, 'notes', 'recall'))).toContain('recalled nothing');
    workerA.reset('notes');
    expect(text(await callTool(workerA, 'notes', 'recall'))).toContain('recalled nothing');
  }, 60_000);
});
