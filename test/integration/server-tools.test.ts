/**
 * Server tools end to end: the compiled CLI and worker, real Temporal (the run's dev server), the
 * weather MCP server, and the fake Messages API (`durable-mcp-host/testing`, in rules mode: scripted
 * steps first, then the offline stand-in's rules). `start --server-tools web_search:3`: the request
 * offers the API's web search beside the MCP tool; the fake answers `pause_turn` with a search and
 * its results; the host continues the turn, sending those blocks back unchanged, and shows the
 * final answer; `status` counts the search and prices it; no MCP tool ran for it. Then the offline
 * stand-in, with `MCP_HOST_SERVER_TOOLS` as the default: it says it cannot search the web.
 */
import { Client, Connection } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { ContentBlock, ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { estimateCost } from '../../src/conversation/cost';
import type { ConversationStatus } from '../../src/conversation/types';
import { dataConverter } from '../../src/temporal/data-converter';
import { OFFLINE_PREFIX } from '../../src/offline';
import { runCliProcess, type CliRun } from '../support/cli-process';
import { weatherServer } from '../support/repo';
import { scheduledActivityTypes } from '../support/scheduled-activities';
import { bashResult, bashUse, citedText, webSearchResult, webSearchUse } from '../support/server-tool-blocks';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

/** Without the breakpoints the host puts on a request's blocks. */
const bare = (blocks: readonly ContentBlockParam[]): unknown[] => blocks.map(({ cache_control: _mark, ...rest }: ContentBlockParam & { cache_control?: unknown }) => rest);

describe('server tools', () => {
  let fake: FakeMessagesApi;
  let worker: WorkerProcess;
  let connection: Connection;
  let client: Client;
  const taskQueue = `server-tools-${randomUUID()}`;
  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
    runCliProcess(args, { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue, ...env });
  const body = (i: number): { tools: Array<{ type?: string; name: string; max_uses?: number }>; messages: MessageParam[] } => fake.requests[i]?.body as never;

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'rules' });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath: writeMcpConfig([weatherServer()]), claudeBaseUrl: fake.url });
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await fake?.close();
  });

  test('web search: a paused turn continued with its blocks unchanged, the answer shown, the search counted and priced, no MCP tool run', async () => {
    const paused: ContentBlock[] = [citedText('Let me search.'), webSearchUse('srvtoolu_it_01', 'durable execution'), webSearchResult('srvtoolu_it_01')];
    fake.enqueue(
      { kind: 'message', content: paused, stop_reason: 'pause_turn', usage: { server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } } },
      { kind: 'message', content: [citedText('Durable execution keeps programs running through failures.')], stop_reason: 'end_turn' },
    );
    const first = fake.requests.length;
    const id = `server-tools-${randomUUID()}`;
    const started = await cli(['start', '--id', id, '--server-tools', 'web_search:3', '--wait', 'What is durable execution?']);
    expect(started).toMatchObject({ code: 0, stdout: `${id}\nDurable execution keeps programs running through failures.\n` });

    // The first request offers the web search beside the MCP tool, with its limit.
    expect(body(first).tools.map((t) => [t.type, t.name, t.max_uses])).toEqual([
      ['web_search_20250305', 'web_search', 3],
      [undefined, 'get_weather', undefined],
    ]);
    // The second continues the paused turn: it ends with the paused reply, its blocks as the API sent them.
    const next = body(first + 1);
    expect(fake.requests).toHaveLength(first + 2);
    expect(next.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(bare(next.messages[1]?.content as ContentBlockParam[])).toEqual(paused);

    // The history keeps the continued turn as one assistant message: the paused blocks, then the answer.
    const history = await cli(['history', id, '--json']);
    const messages = JSON.parse(history.stdout) as MessageParam[];
    expect((messages[1]?.content as ContentBlockParam[]).map((b) => b.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result', 'text']);
    expect((await cli(['history', id])).stdout).toContain('→ server_tool_use web_search {"query":"durable execution"} (srvtoolu_it_01)');

    // status: the search counted, and in the cost at $10 per 1,000; no tool call.
    const statusJson = await cli(['status', id, '--json']);
    const status = JSON.parse(statusJson.stdout) as ConversationStatus;
    expect(status).toMatchObject({ modelCalls: 2, toolCalls: 0, lastStopReason: 'end_turn' });
    expect(status.usage.webSearchRequests).toBe(1);
    expect(status.usage.webFetchRequests).toBeUndefined();
    const tokensOnly = estimateCost({ ...status.usage, webSearchRequests: 0 }, 'claude-sonnet-4-6').usd;
    expect(status.cost.usd).toBeCloseTo(tokensOnly + 0.01, 6);
    const human = await cli(['status', id]);
    expect(human.stdout).toContain('server tools: web search 1, web fetch 0, code execution 0');
    expect(human.stdout).toContain(`cost: $${status.cost.usd.toFixed(4)} (estimate)`);

    // The workflow ran no MCP tool for the search: two Claude calls, no callTool.
    const events = await client.workflow.getHandle(id).fetchHistory();
    expect(scheduledActivityTypes(events)).toEqual(['listTools', 'callClaude', 'callClaude']);
  }, 180_000);

  test('code execution: its container goes back on the next calls, its calls are counted, the cost says what it leaves out', async () => {
    const container = { id: 'container_011CPR5CNjB747bTd36fQLFk', expires_at: new Date(Date.now() + 3_600_000).toISOString(), skills: null };
    fake.enqueue(
      { kind: 'message', content: [bashUse('srvtoolu_it_02', 'python3 -c "print(6*7)"'), bashResult('srvtoolu_it_02', '42\n')], stop_reason: 'pause_turn', container },
      { kind: 'message', content: [{ type: 'text', text: '42.' }], stop_reason: 'end_turn', container },
      { kind: 'message', content: [{ type: 'text', text: 'Still here.' }], stop_reason: 'end_turn' },
    );
    const first = fake.requests.length;
    const id = `server-tools-code-${randomUUID()}`;
    expect(await cli(['start', '--id', id, '--server-tools', 'code_execution', '--wait', 'What is 6 times 7? Use Python.'])).toMatchObject({ code: 0, stdout: `${id}\n42.\n` });
    expect(await cli(['send', id, 'Are the files still there?'])).toMatchObject({ code: 0, stdout: 'Still here.\n' });
    const bodies = [0, 1, 2].map((i) => fake.requests[first + i]?.body as { container?: unknown; tools: Array<{ type?: string }> });
    expect(bodies.map((b) => b.container)).toEqual([undefined, container.id, container.id]);
    expect(bodies[0]?.tools[0]).toEqual({ type: 'code_execution_20250825', name: 'code_execution' });
    const status = JSON.parse((await cli(['status', id, '--json'])).stdout) as ConversationStatus;
    expect(status.usage.codeExecutionCalls).toBe(1);
    expect(status.cost.note).toMatch(/code execution container time not included/);
  }, 180_000);

  test('a turn that ends while a search is paused unanswered (the iteration limit) drops that call, so the next turn is valid', async () => {
    fake.enqueue({ kind: 'message', content: [citedText('Searching.'), webSearchUse('srvtoolu_it_03', 'q')], stop_reason: 'pause_turn' });
    const first = fake.requests.length;
    const id = `server-tools-limit-${randomUUID()}`;
    const started = await cli(['start', '--id', id, '--server-tools', 'web_search', '--max-iterations', '1', '--wait', 'Find it.']);
    expect(started.stdout).toContain('Searching.');
    // Another turn (answered by the rules): the API would refuse the unanswered call before it.
    expect((await cli(['send', id, 'hello'])).code).toBe(0);
    const next = fake.requests[first + 1]?.body as { messages: MessageParam[] };
    expect(next.messages[1]).toEqual({ role: 'assistant', content: [citedText('Searching.')] });
  }, 180_000);

  test('the offline stand-in (MCP_HOST_SERVER_TOOLS as the default) says it cannot search the web', async () => {
    const first = fake.requests.length;
    const id = `server-tools-offline-${randomUUID()}`;
    const started = await cli(['start', '--id', id, '--wait', 'Search the web for the latest Temporal release'], { MCP_HOST_SERVER_TOOLS: 'web_search,web_fetch' });
    expect(started.code).toBe(0);
    expect(started.stdout).toContain(`${OFFLINE_PREFIX}I am an offline stand-in for Claude, not Claude itself, so I cannot search or fetch the web`);
    expect(started.stdout).toContain('Nothing was searched.');
    expect(body(first).tools.map((t) => t.name)).toEqual(['web_search', 'web_fetch', 'get_weather']);
    // `--server-tools none` overrides the default.
    const none = await cli(['start', '--wait', '--server-tools', 'none', 'hello'], { MCP_HOST_SERVER_TOOLS: 'web_search' });
    expect(none.code).toBe(0);
    expect(body(first + 1).tools.map((t) => t.name)).toEqual(['get_weather']);
  }, 180_000);
});
