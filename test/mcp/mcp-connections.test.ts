/**
 * The MCP connection's life and failures over real stdio processes (test/fixtures/scenario-server.ts),
 * driven through the pool and the `callTool` activity in Temporal's mock activity context: kill -9
 * between calls, death mid-call, a hanging tool, a wedged server, cancellation, progress, idle
 * closing, and no process left behind.
 */
import { CancelledFailure } from '@temporalio/common';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { childProcesses, isRunning } from '../fixtures/child-processes';
import { callToolActivity as callTool, failureOf, quietActivityEnvironment } from '../fixtures/mock-activities';
import { scenarioServer } from '../fixtures/reference-servers';

const TOOLS = 'whoami|hang|block|die_once|progress|echo|internal_error|server_error';

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

async function pidOf(connections: McpConnections, server: string): Promise<number> {
  const out = await callTool(connections, server, 'whoami');
  return (JSON.parse(out.content as string) as { pid: number }).pid;
}

describe('MCP connections: failures and lifecycle', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-resilience-'));
  const logFile = path.join(dir, 'scenario.log');
  const logs: string[] = [];
  let connections: McpConnections;
  const eventLines = (): string[] => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : []);

  beforeAll(() => {
    const env = { SCENARIO_TOOLS: TOOLS, SCENARIO_LOG: logFile, SCENARIO_STATE: path.join(dir, 'died-once') };
    connections = new McpConnections(
      [
        scenarioServer('victim', env),
        // A short call timeout, as a server config would set it.
        scenarioServer('slow', env, { timeoutMs: 800 }),
      ],
      (line) => logs.push(line),
    );
  });
  afterAll(async () => {
    await connections?.closeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  test('kill -9 of a stdio server between two calls: the next call reconnects and succeeds', async () => {
    const first = await pidOf(connections, 'victim');
    expect(connections.pid('victim')).toBe(first);
    process.kill(first, 'SIGKILL');
    // Between two calls: the process is dead (SIGKILL is delivered asynchronously, so wait for it), but
    // the event loop has not run, so nothing has told the host; the call must not go into the dead pipe.
    const deadline = Date.now() + 5000;
    while (isRunning(first) && Date.now() < deadline) {
      // Spinning on purpose: yielding would let the host see the process's close event first.
    }
    const second = await pidOf(connections, 'victim');
    expect(second).not.toBe(first);
    expect(isRunning(first)).toBe(false);
    expect(connections.pid('victim')).toBe(second);
  });

  test('a server that dies during a call: the tool may have run, so (not marked idempotent) it is not run again; the next call reconnects', async () => {
    const failure = await failureOf(callTool(connections, 'victim', 'die_once'));
    expect(failure.type).toBe('mcp.connection_lost');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toMatch(/may or may not have run.*; not run again: it may have run/);
    const again = await callTool(connections, 'victim', 'die_once');
    expect(again.content).toMatch(/^survived in \d+$/);
  });

  test('JSON-RPC -32603 and -32000 answered by the server are retryable server errors (the tool\'s attempt budget bounds them); the connection stays', async () => {
    const pid = await pidOf(connections, 'victim');
    for (const [tool, code, text] of [['internal_error', -32603, 'the database went away'], ['server_error', -32000, 'server busy, try again']] as const) {
      const failure = await failureOf(callTool(connections, 'victim', tool));
      expect({ type: failure.type, nonRetryable: failure.nonRetryable ?? false }).toEqual({ type: 'mcp.server_error', nonRetryable: false });
      expect(failure.message).toContain(`JSON-RPC ${code}`);
      expect(failure.message).toContain(text);
    }
    // An answer is not a broken connection: the same process serves the next call.
    expect(await pidOf(connections, 'victim')).toBe(pid);
  });

  test('a hanging tool times out after the server\'s timeoutMs, the server is told (notifications/cancelled), the connection stays', async () => {
    const pid = await pidOf(connections, 'slow');
    const started = Date.now();
    const failure = await failureOf(callTool(connections, 'slow', 'hang'));
    expect(Date.now() - started).toBeLessThan(5000);
    // Not marked idempotent, and it may still be running: not run again.
    expect(failure).toMatchObject({ type: 'mcp.timeout', nonRetryable: true });
    expect(failure.message).toBe(
      'tools/call "hang" on MCP server "slow" timed out after 800 ms (the server\'s timeoutMs); not run again: it may have run, and its server does not mark it idempotent or read-only',
    );
    await until(() => eventLines().includes('cancelled hang'));
    // It still answers a ping, so it is busy, not wedged: the same process serves the next call.
    expect(await pidOf(connections, 'slow')).toBe(pid);
  });

  test('a wedged server (its event loop blocked) times out, fails its ping, and is replaced by a new process', async () => {
    const pid = await pidOf(connections, 'slow');
    const failure = await failureOf(callTool(connections, 'slow', 'block'));
    expect(failure.type).toBe('mcp.timeout');
    expect(logs).toContain('[mcp:slow] did not answer a ping after a timed-out call; dropping the connection');
    const next = await pidOf(connections, 'slow');
    expect(next).not.toBe(pid);
    // The blocked process is terminated in the background (it cannot react to stdin closing).
    await until(() => !isRunning(pid));
  });

  test('progress notifications keep a long call alive past its timeout and feed the heartbeat details', async () => {
    const env = quietActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (details: unknown) => beats.push(details));
    // 5 steps of 300 ms: 1.5 s in all, with an 800 ms timeout that each notification resets.
    const out = await callTool(connections, 'slow', 'progress', { steps: 5, ms: 300 }, env);
    expect(out.content).toBe('done after 5 steps');
    // The SDK may drop the last notification when it arrives with the result; the earlier ones arrive.
    const steps = beats.map((beat) => (beat as { progress?: { progress: number; total: number } }).progress).filter((p) => p !== undefined);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.every((p) => p.total === 5)).toBe(true);
    expect(new Set(steps.map((p) => p.progress)).size).toBeGreaterThanOrEqual(3);
  });

  test('Temporal cancelling the activity cancels the MCP request (notifications/cancelled) and the activity ends as cancelled', async () => {
    const env = quietActivityEnvironment();
    const before = eventLines().filter((l) => l === 'cancelled hang').length;
    const running = callTool(connections, 'victim', 'hang', {}, env).then(
      () => new Error('the call should not complete'),
      (err: unknown) => err,
    );
    await until(() => eventLines().filter((l) => l === 'start hang').length > before);
    env.cancel();
    expect(await running).toBeInstanceOf(CancelledFailure);
    await until(() => eventLines().filter((l) => l === 'cancelled hang').length > before);
  });

  test('an idle connection is closed and reopens on next use', async () => {
    const pool = new McpConnections([scenarioServer('idler', { SCENARIO_TOOLS: 'whoami' })], () => undefined, { idleCloseMs: 300 });
    try {
      const first = await pidOf(pool, 'idler');
      const generation = pool.toolsGeneration();
      await until(() => !isRunning(first), 5000);
      expect(pool.pid('idler')).toBeUndefined();
      const second = await pidOf(pool, 'idler');
      expect(second).not.toBe(first);
      // A reopened server may list other tools: the catalogue is built again.
      expect(pool.toolsGeneration()).toBeGreaterThan(generation);
    } finally {
      await pool.closeAll();
    }
  });

  test('closeAll, even with a call in flight, leaves no server process behind', async () => {
    const pids = [await pidOf(connections, 'victim'), await pidOf(connections, 'slow')];
    const inFlight = callTool(connections, 'victim', 'hang').catch((err: unknown) => err);
    await until(() => eventLines().filter((l) => l === 'start hang').length > 0);
    await connections.closeAll();
    for (const pid of pids) expect(isRunning(pid)).toBe(false);
    expect(childProcesses().filter((child) => child.command.includes('scenario-server'))).toEqual([]);
    expect(await inFlight).toBeInstanceOf(Error);
    // A closed pool opens nothing new.
    await expect(connections.client('victim')).rejects.toThrow(/shutting down/);
  });
});
