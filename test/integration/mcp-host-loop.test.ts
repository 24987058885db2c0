/**
 * The MCP host layer end to end: the conversation workflow on the real dev server, the real Anthropic
 * SDK against the wire-level fake, and real MCP servers — server-everything over stdio and over
 * Streamable HTTP, and scenario servers for paging, shared and awkward names, JSON-RPC errors, a
 * hanging tool, kill -9 and list_changed. Assertions are on what reaches the (fake) Messages API.
 * Rule ids (S…) refer to shared/seed/RULES.md.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RecordedRequest, ScriptStep } from '../../src/testing';
import type { ContentBlockParam, Tool } from '../../src/conversation/types';
import { sendMessageUpdate, statusQuery } from '../../src/workflows/definitions';
import { childProcesses, isRunning } from '../fixtures/child-processes';
import { everythingServer, scenarioServer, startEverythingHttp, type EverythingHttp } from '../fixtures/reference-servers';
import { blocksOf, messagesOf, startConversation, validationErrors, type ConversationHandle } from '../support/loop-helpers';
import { startTestWorker, type TestWorker } from '../support/test-worker';

/** A 70-character MCP tool name. */
const LONG = `summarise_${'very_'.repeat(12)}`;

const ok = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

function toolsOf(request: RecordedRequest): Tool[] {
  return (request.body as { tools: Tool[] }).tools;
}

/** The Claude name of the scenario tool with this exact MCP name (found by its description). */
function scenarioTool(request: RecordedRequest, mcpName: string): string {
  const tool = toolsOf(request).find((t) => t.description === `scenario tool ${JSON.stringify(mcpName)}`);
  if (!tool) throw new Error(`the request offers no scenario tool ${mcpName}`);
  return tool.name;
}

/** A reply calling tools whose names are decided from the request (Claude only knows what it was offered). */
function callTools(pick: (request: RecordedRequest) => Array<{ name: string; input: Record<string, unknown> }>): ScriptStep {
  return {
    kind: 'respond',
    respond: (request) => ({
      kind: 'message',
      content: pick(request).map((use, i) => ({ type: 'tool_use' as const, id: `toolu_${String(i).padStart(2, '0')}${Math.random().toString(36).slice(2, 10)}`, name: use.name, input: use.input })),
      stop_reason: 'tool_use',
    }),
  };
}

/** The tool_result blocks of the last message of a request. */
function toolResultsOf(request: RecordedRequest | undefined): Array<Extract<ContentBlockParam, { type: 'tool_result' }>> {
  const messages = messagesOf(request);
  return blocksOf(messages[messages.length - 1]).filter((b): b is Extract<ContentBlockParam, { type: 'tool_result' }> => b.type === 'tool_result');
}

describe('MCP host end to end (conversation workflow + real MCP servers)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-host-loop-'));
  const alphaLog = path.join(dir, 'alpha.log');
  const slowLog = path.join(dir, 'slow.log');
  let http: EverythingHttp | undefined;
  let w: TestWorker;
  let handle: ConversationHandle;

  const lines = (file: string, line: string): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l === line).length : 0);

  beforeAll(async () => {
    http = await startEverythingHttp('streamableHttp');
    w = await startTestWorker({
      servers: [
        everythingServer(),
        { name: 'everything_http', transport: 'http', url: http.url, headers: {}, tools: {} },
        scenarioServer('alpha', {
          SCENARIO_TOOLS: ['search', 'a.b.c', LONG, 'whoami', 'invalid_params', 'method_not_found', 'add_tool'].join('|'),
          SCENARIO_LOG: alphaLog,
          SCENARIO_LABEL: 'alpha',
        }),
        scenarioServer('beta', { SCENARIO_TOOLS: 'search', SCENARIO_GENERATED: '210', SCENARIO_PAGE_SIZE: '7', SCENARIO_LABEL: 'beta' }),
        scenarioServer('slowpoke', { SCENARIO_TOOLS: 'hang|ping_me|internal_error', SCENARIO_LOG: slowLog }, { timeoutMs: 1500 }),
      ],
    });
    handle = await startConversation(w, {}, 'mcp-host');
  });
  afterAll(async () => {
    await w?.stop();
    await http?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    expect(w.fake.pending()).toBe(0);
  });

  test('one reply, eleven tools: image blocks over stdio and HTTP, isError, exact names back, host-written JSON-RPC errors (S10–S14, S17)', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      callTools((request) => [
        { name: 'everything__get-tiny-image', input: {} },
        { name: 'everything_http__get-tiny-image', input: {} },
        { name: 'everything__echo', input: { message: 42 } },
        { name: 'alpha__search', input: { q: 'x' } },
        { name: 'beta__search', input: { q: 'y' } },
        { name: scenarioTool(request, 'a.b.c'), input: {} },
        { name: scenarioTool(request, LONG), input: {} },
        { name: 'gen_209', input: {} },
        { name: 'invalid_params', input: {} },
        { name: 'method_not_found', input: {} },
        { name: 'no_such_tool', input: {} },
      ]),
      ok('All done.'),
    );
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['use every tool'] });
    expect(turn).toMatchObject({ status: 'completed', text: 'All done.', modelCalls: 2, toolCalls: 11 });

    const [first, second] = w.fake.requests.slice(from);
    // Everything listed: 211 tools of beta's 31 pages among them, every name valid for Claude.
    const names = toolsOf(first!).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['alpha__search', 'beta__search', 'a_b_c', 'gen_000', 'gen_209', 'everything__echo', 'everything_http__echo']));
    expect(names.filter((n) => /^gen_\d{3}$/.test(n))).toHaveLength(210);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(scenarioTool(first!, LONG)).toHaveLength(64);
    expect(toolsOf(second!)).toEqual(toolsOf(first!)); // S12: tools on every request

    const results = toolResultsOf(second);
    expect(results).toHaveLength(11);
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) } };
    expect(results[0]).toMatchObject({ content: expect.arrayContaining([image]) });
    expect(results[0]!.is_error).toBeUndefined();
    expect(results[1]).toMatchObject({ content: expect.arrayContaining([image]) });
    expect(results[2]).toMatchObject({ is_error: true, content: expect.stringMatching(/Invalid arguments for tool echo/) });
    expect(results.slice(3, 8).map((r) => r.content)).toEqual([
      'called search {"q":"x"} on alpha',
      'called search {"q":"y"} on beta',
      'called a.b.c {} on alpha',
      `called ${LONG} {} on alpha`,
      'called gen_209 {} on beta',
    ]);
    expect(results[8]).toMatchObject({ is_error: true, content: expect.stringMatching(/^\[host\] Tool "invalid_params" could not be run: mcp\.invalid_params: .*-32602.*the argument "n" must be a number/) });
    expect(results[9]).toMatchObject({ is_error: true, content: expect.stringMatching(/^\[host\] Tool "method_not_found" could not be run: mcp\.method_not_found: .*-32601/) });
    expect(results[10]).toMatchObject({ is_error: true, content: expect.stringMatching(/^\[host\] There is no tool named "no_such_tool"/) });
    // JSON-RPC errors are answers: each was sent once, never retried.
    expect(lines(alphaLog, 'start invalid_params')).toBe(1);
    expect(lines(alphaLog, 'start method_not_found')).toBe(1);

    const status = await handle.query(statusQuery);
    expect(status).toMatchObject({ toolCalls: 11, toolErrors: 1, hostToolErrors: 3 });
    expect(validationErrors(w.fake.requests.slice(from))).toEqual([null, null]);
  });

  test('kill -9 of a stdio server between two turns: the next call reconnects and succeeds', async () => {
    const before = w.mcp.pid('alpha');
    expect(before).toBeDefined();
    process.kill(before!, 'SIGKILL');
    const from = w.fake.requests.length;
    w.fake.enqueue(callTools(() => [{ name: 'whoami', input: {} }]), ok('Still here.'));
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['who are you now?'] });
    expect(turn).toMatchObject({ status: 'completed', text: 'Still here.' });
    const [result] = toolResultsOf(w.fake.requests[from + 1]);
    expect(result!.is_error).toBeUndefined();
    const who = JSON.parse(result!.content as string) as { pid: number };
    expect(who.pid).not.toBe(before);
    expect(isRunning(before!)).toBe(false);
  });

  test('a tool that hangs: cut at the server timeout, not run again (it may have run); a failing one: bounded attempts; the model gets clear errors; the worker keeps serving', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      callTools(() => [
        { name: 'hang', input: {} },
        { name: 'internal_error', input: {} },
      ]),
      callTools(() => [{ name: 'ping_me', input: { after: 'hang' } }]),
      ok('The slow tool is broken; the other one works.'),
    );
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['try the slow tool'] });
    expect(turn).toMatchObject({ status: 'completed', modelCalls: 3, toolCalls: 3 });
    const [hung, failing] = toolResultsOf(w.fake.requests[from + 1]);
    expect(hung).toMatchObject({
      is_error: true,
      content:
        '[host] Tool "hang" could not be run: mcp.timeout: tools/call "hang" on MCP server "slowpoke" timed out after 1500 ms (the server\'s timeoutMs); not run again: it may have run, and its server does not mark it idempotent or read-only',
    });
    expect(failing).toMatchObject({ is_error: true });
    expect(failing?.content).toMatch(/^\[host\] Tool "internal_error" could not be run: mcp\.server_error: .*the database went away; tried 3 times$/);
    // Not marked idempotent and it may have run: one attempt, cancelled on the server (tool retry policy).
    expect(lines(slowLog, 'start hang')).toBe(1);
    expect(lines(slowLog, 'cancelled hang')).toBe(1);
    // A server error it answered: three attempts (the tool's budget, kept by the activity across
    // Temporal's unlimited attempts), no more.
    expect(lines(slowLog, 'start internal_error')).toBe(3);
    const events = (await handle.fetchHistory()).events ?? [];
    const attemptOfFailure = (type: string): Array<number | null | undefined> =>
      events
        .filter((e) => e.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type === type)
        .map((failed) => {
          expect(failed.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.nonRetryable).toBe(true);
          const started = events.find((e) => e.eventId?.toString() === failed.activityTaskFailedEventAttributes?.startedEventId?.toString());
          return started?.activityTaskStartedEventAttributes?.attempt;
        });
    expect(attemptOfFailure('mcp.timeout')).toEqual([1]);
    expect(attemptOfFailure('mcp.server_error')).toEqual([3]);
    const [after] = toolResultsOf(w.fake.requests[from + 2]);
    expect(after).toMatchObject({ content: 'called ping_me {"after":"hang"}' });

    w.fake.enqueue(ok('Next turn served.'));
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['and now?'] })).toMatchObject({ status: 'completed', text: 'Next turn served.' });
  });

  test('notifications/tools/list_changed: a tool added during one turn is offered from the next turn on', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(callTools(() => [{ name: 'add_tool', input: {} }]), ok('Added.'), ok('I see the new tool.'));
    await handle.executeUpdate(sendMessageUpdate, { args: ['add a tool'] });
    await handle.executeUpdate(sendMessageUpdate, { args: ['what tools do you have?'] });
    const [addRequest, , nextTurn] = w.fake.requests.slice(from);
    expect(toolsOf(addRequest!).some((t) => t.name === 'added_later')).toBe(false);
    expect(toolsOf(nextTurn!).some((t) => t.name === 'added_later')).toBe(true);
  });

  test('one connection per server for the whole conversation (reopened only after kill -9); server stderr in the worker log', () => {
    const connects = (server: string): number => w.logs.filter((line) => line.startsWith(`[mcp:${server}] connected`)).length;
    expect(connects('beta')).toBe(1);
    expect(connects('everything')).toBe(1);
    expect(connects('everything_http')).toBe(1);
    expect(connects('alpha')).toBe(2);
    expect(w.logs).toContain('[mcp:everything] Starting default (STDIO) server...');
    expect(w.logs.some((line) => /^\[mcp:alpha\] scenario-server \d+ ready$/.test(line))).toBe(true);
  });

  test('after the worker stops, no MCP server process remains', async () => {
    const pids = ['everything', 'alpha', 'beta', 'slowpoke'].map((name) => w.mcp.pid(name));
    expect(pids.every((pid) => pid !== undefined)).toBe(true);
    await w.stop();
    for (const pid of pids) expect(isRunning(pid!)).toBe(false);
    const leftovers = childProcesses().filter((child) => child.command.includes('scenario-server') || / stdio$/.test(child.command));
    expect(leftovers).toEqual([]);
  });
});
