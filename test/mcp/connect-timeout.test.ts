/**
 * A server that never finishes the handshake (issue 9): connecting is bounded by the server's
 * configured timeout (at least 5 s: starting a process takes seconds), not the SDK's 60 s default, and a server that failed to connect is left out
 * of listing for a back-off, so the turns right after it go on with the other servers at once.
 */
import { McpConnections } from '../../src/mcp/mcp-connections';
import { buildToolCatalog } from '../../src/mcp/tool-catalog';
import { callToolActivity as callTool, failureOf } from '../fixtures/mock-activities';
import { scenarioServer } from '../fixtures/reference-servers';

/** A server that reads its input and never answers: the handshake never ends. */
const MUTE = "process.stdin.resume(); process.stderr.write('mute ' + process.pid + '\\n');";

/** Times `body`, in ms. */
async function timed<T>(body: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await body();
  return { value, ms: Date.now() - started };
}

describe('connecting to a server that never finishes the handshake', () => {
  const logs: string[] = [];
  let connections: McpConnections;
  /** Processes the mute server was started as (it says so on stderr). */
  const muteStarts = (): number => logs.filter((line) => /^\[mcp:mute\] mute \d+$/.test(line)).length;

  beforeAll(() => {
    // A short back-off, so the test can wait it out.
    const options = { connectBackoffMs: 3000 };
    connections = new McpConnections(
      [
        // Plain node (quick to start, unlike tsx under load): reads its input, never answers.
        { name: 'mute', transport: 'stdio', command: process.execPath, args: ['-e', MUTE], env: {}, tools: {}, timeoutMs: 1500 },
        scenarioServer('good', { SCENARIO_TOOLS: 'x' }),
      ],
      (line) => logs.push(line),
      options,
    );
  });
  afterAll(async () => {
    await connections?.closeAll();
  });

  test("the handshake is cut at the server's timeoutMs (5 s at least); the turn goes on with the other servers", async () => {
    const { value: catalog, ms } = await timed(() => buildToolCatalog(connections));
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['x']);
    expect(ms).toBeGreaterThanOrEqual(4900);
    expect(ms).toBeLessThan(15_000);
    expect(logs.some((line) => line.startsWith('[mcp:mute] warning: its tools are left out') && /within 5000 ms/.test(line))).toBe(true);
    expect(muteStarts()).toBe(1);
  }, 20_000);

  test('within the back-off, the next turn does not wait for it again', async () => {
    const { value: catalog, ms } = await timed(() => buildToolCatalog(connections));
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['x']);
    expect(ms).toBeLessThan(1000);
    expect(logs.some((line) => line.startsWith('[mcp:mute] warning: its tools are left out') && /tried again in \d+ s/.test(line))).toBe(true);
    expect(muteStarts()).toBe(1);
  }, 20_000);

  test('after the back-off it is tried again', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const { ms } = await timed(() => buildToolCatalog(connections));
    expect(ms).toBeGreaterThanOrEqual(4900);
    expect(muteStarts()).toBe(2);
  }, 20_000);

  test('a tool call to it connects anyway (the model asked for that server), cut at its timeoutMs, and fails retryable', async () => {
    const { value: failure, ms } = await timed(() => failureOf(callTool(connections, 'mute', 'anything')));
    expect(failure.type).toBe('mcp.connect_failed');
    expect(failure.nonRetryable).toBeFalsy();
    expect(failure.message).toMatch(/the handshake did not finish within 5000 ms/);
    expect(ms).toBeLessThan(15_000);
    expect(muteStarts()).toBe(3);
  }, 20_000);
});
