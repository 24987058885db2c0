/**
 * Issue 10, CLI completeness: `mcp-host list` (conversations from visibility with state, counts
 * and last message; `--state` filters on the search attribute), `mcp-host tools` (the merged
 * catalogue: Claude name, server, MCP name), `status` as text, and their errors: one line, non-zero
 * exit. In process (runCli with captured output), on the run's dev server with a test worker.
 */
import { randomUUID } from 'node:crypto';
import { runCli } from '../../src/client/cli';
import { readSettings } from '../../src/config/settings';
import type { ConversationListing } from '../../src/client/commands';
import type { CatalogueRow } from '../../src/client/tool-catalogue';
import { waitFor } from '../support/loop-helpers';
import { tsServer, weatherServer } from '../support/repo';
import { startTestWorker, temporalAddress, type TestWorker } from '../support/test-worker';
import { writeMcpConfig } from '../support/worker-process';

describe('mcp-host list, tools, status', () => {
  let w: TestWorker;
  const mcpConfig = writeMcpConfig([weatherServer(), tsServer('lab', 'test/fixtures/lab-server.ts'), tsServer('lab2', 'test/fixtures/lab-server.ts')]);

  /** Runs the CLI in process against this suite's worker; returns exit code and output. */
  async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const settings = readSettings({ TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: w.taskQueue, MCP_CONFIG: mcpConfig });
    const code = await runCli(argv, settings, (t) => out.push(t), (t) => err.push(t));
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  beforeAll(async () => {
    w = await startTestWorker({ servers: [weatherServer()] });
  });
  afterAll(async () => {
    await w?.stop();
  });

  test('list: every conversation of the task queue with state, counts and last answer; --state filters', async () => {
    w.fake.enqueue(
      { kind: 'message', content: [{ type: 'tool_use', id: 'toolu_l1', name: 'get_weather', input: { city: '北京' } }], stop_reason: 'tool_use' },
      { kind: 'message', content: [{ type: 'text', text: '北京晴，25°C。' }], stop_reason: 'end_turn' },
      { kind: 'message', content: [{ type: 'text', text: '再见' }], stop_reason: 'end_turn' },
    );
    const idle = `list-idle-${randomUUID()}`;
    const ended = `list-ended-${randomUUID()}`;
    expect((await cli('start', '--id', idle, '--wait', '北京天气')).code).toBe(0);
    expect((await cli('start', '--id', ended, '--wait', 'bye')).code).toBe(0);
    expect((await cli('end', ended)).code).toBe(0);

    const rows = await waitFor('both conversations listed as they are now', async () => {
      const run = await cli('list', '--json');
      const listed = JSON.parse(run.stdout) as ConversationListing[];
      const states = Object.fromEntries(listed.map((r) => [r.id, r.state]));
      return states[idle] === 'idle' && states[ended] === 'ended' ? listed : undefined;
    }, 20_000);
    expect(rows.find((r) => r.id === idle)).toMatchObject({ state: 'idle', turns: 1, toolCalls: 1, lastMessage: '北京晴，25°C。', status: 'RUNNING' });
    expect(rows.find((r) => r.id === ended)).toMatchObject({ state: 'ended', turns: 1, toolCalls: 0, lastMessage: '再见', status: 'COMPLETED' });

    const table = await cli('list');
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID +STATE +TURNS +TOOLS +STARTED \(UTC\) +LAST MESSAGE$/);
    expect(lines.find((l) => l.startsWith(idle))).toMatch(new RegExp(`^${idle} +idle +1 +1 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d +北京晴，25°C。$`));

    const onlyIdle = JSON.parse((await cli('list', '--state', 'idle', '--json')).stdout) as ConversationListing[];
    expect(onlyIdle.map((r) => r.id)).toContain(idle);
    expect(onlyIdle.map((r) => r.id)).not.toContain(ended);
  });

  test('tools: the merged catalogue of MCP_CONFIG, Claude name, server, MCP name', async () => {
    const run = await cli('tools', '--json');
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as CatalogueRow[];
    expect(rows).toContainEqual(expect.objectContaining({ claudeName: 'get_weather', server: 'weather', mcpName: 'get_weather' }));
    // Two servers listing the same tool: Claude gets two names, each routed to its own server.
    const adds = rows.filter((r) => r.mcpName === 'add');
    expect(adds.map((r) => r.server).sort()).toEqual(['lab', 'lab2']);
    expect(new Set(adds.map((r) => r.claudeName)).size).toBe(2);
    const table = (await cli('tools')).stdout.split('\n');
    expect(table[0]).toMatch(/^CLAUDE NAME +SERVER +MCP NAME$/);
    expect(table).toContainEqual(expect.stringMatching(/^get_weather +weather +get_weather$/));
  });

  test('status prints text, not JSON', async () => {
    w.fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn' });
    const id = `status-${randomUUID()}`;
    await cli('start', '--id', id, '--wait', 'hello');
    const run = await cli('status', id);
    expect(run.stdout).toMatch(/^state: idle {3}turns: 1 /);
    expect(run.stdout).not.toContain('{');
  });

  test('errors: one line, non-zero exit', async () => {
    const badState = await cli('list', '--state', 'sleeping');
    expect(badState.code).toBe(2);
    expect(badState.stderr.split('\n')[0]).toBe('mcp-host: --state must be one of idle, running, ended, got "sleeping"');
    const missingConfig = await runCli(['tools'], readSettings({ MCP_CONFIG: '/nonexistent/mcp.json' }), () => undefined, (line) => {
      expect(line.split('\n')).toHaveLength(1);
      expect(line).toMatch(/^mcp-host: .*\/nonexistent\/mcp\.json/);
    });
    expect(missingConfig).toBe(1);
    // `tools ID` lists one conversation's catalogue (an unknown id: exit 1); a second argument is a usage error.
    const extra = await cli('tools', 'some-id', 'extra');
    expect(extra.code).toBe(2);
  });
});
