/**
 * A server that never finishes the handshake (issue 9): a turn waits for it no longer than the
 * server's timeoutMs, 30 s at least (not the SDK's 60 s handshake timeout), and goes on with the other
 * servers while connecting goes on in the background, and the turns after it do not wait again; a tool call to it fails at the attempt's own
 * deadline (retryable: it sent nothing), before its start-to-close timeout. A server that failed to connect is left out of listing for a back-off, so the turns
 * right after do not try it again.
 */
import { McpConnections } from '../../src/mcp/mcp-connections';
import { buildToolCatalog } from '../../src/mcp/tool-catalog';
import { callToolActivity as callTool, failureOf } from '../fixtures/mock-activities';
import { scenarioServer } from '../fixtures/reference-servers';

/** A server that reads its input and never answers: the handshake never ends. Plain node: quick to start. */
const MUTE = "process.stdin.resume(); process.stderr.write('mute ' + process.pid + '\\n');";

/** Times `body`, in ms. */
async function timed<T>(body: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await body();
  return { value, ms: Date.now() - started };
}

describe('a server that never finishes the handshake, and one that cannot start', () => {
  const logs: string[] = [];
  let connections: McpConnections;
  /** Processes the mute server was started as (it says so on stderr). */
  const muteStarts = (): number => logs.filter((line) => /^\[mcp:mute\] mute \d+$/.test(line)).length;

  beforeAll(async () => {
    connections = new McpConnections(
      [
        { name: 'mute', transport: 'stdio', command: process.execPath, args: ['-e', MUTE], env: {}, tools: {}, timeoutMs: 1500 },
        scenarioServer('good', { SCENARIO_TOOLS: 'x' }),
      ],
      (line) => logs.push(line),
    );
    // Started before timing: under load, starting a tsx server takes seconds by itself.
    await connections.client('good');
  }, 60_000);
  afterAll(async () => {
    await connections?.closeAll();
  });

  test('one turn waits for it no longer than its timeoutMs (30 s at least) and goes on with the other servers; the next turns do not wait', async () => {
    const { value: catalog, ms } = await timed(() => buildToolCatalog(connections));
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['x']);
    expect(ms).toBeGreaterThanOrEqual(29_900);
    expect(ms).toBeLessThan(40_000);
    expect(logs.some((line) => line.startsWith('[mcp:mute] warning: its tools are left out') && /within 30000 ms/.test(line))).toBe(true);
    // Still connecting in the background, the same process: the next turn neither waits nor starts another one.
    const again = await timed(() => buildToolCatalog(connections));
    expect(again.value.tools.map((tool) => tool.name)).toEqual(['x']);
    expect(again.ms).toBeLessThan(2000);
    expect(logs.some((line) => line.startsWith('[mcp:mute] warning: its tools are left out') && /still connecting/.test(line))).toBe(true);
    expect(muteStarts()).toBe(1);
  }, 90_000);

  test('a server that failed to connect is not tried again by the turns within its back-off (doubling); after it, it is', async () => {
    const lines: string[] = [];
    const ghost = new McpConnections([{ name: 'ghost', transport: 'stdio', command: '/nonexistent/mcp-server', args: [], env: {}, tools: {} }], (line) => lines.push(line), {
      connectBackoffMs: 1000,
    });
    const tries = (): number => lines.filter((line) => !line.includes('warning') && /ENOENT/.test(line)).length;
    // Its only server: listing fails (and the activity would be retried), saying when it is tried again.
    const list = (): Promise<unknown> => buildToolCatalog(ghost).catch((err: unknown) => err);
    try {
      await list();
      expect(tries()).toBe(1);
      expect(String(await list())).toMatch(/tried again in 1 s/);
      expect(tries()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await list();
      expect(tries()).toBe(2);
      // Twice in a row: 2 s now.
      expect(String(await list())).toMatch(/tried again in 2 s/);
      expect(tries()).toBe(2);
    } finally {
      await ghost.closeAll();
    }
  });

  test("a tool call to it fails at the attempt's deadline (timeoutMs + 20 s), retryable (nothing was sent)", async () => {
    const { value: failure, ms } = await timed(() => failureOf(callTool(connections, 'mute', 'anything')));
    expect(failure.type).toBe('mcp.connect_failed');
    expect(failure.nonRetryable).toBeFalsy();
    expect(failure.message).toMatch(/has not finished connecting within 21500 ms/);
    expect(ms).toBeLessThan(30_000);
  }, 60_000);
});
