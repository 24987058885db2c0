/**
 * The `mcp-host` CLI as a user runs it: real processes (CLI, worker), the real dev server, the
 * weather server, and the fake Messages API. The seed's §7.2 conversation, then the error paths.
 */
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import type { ConversationStatus, MessageParam } from '../../src/conversation/types';
import { runCliProcess, type CliRun } from '../support/cli-process';
import { weatherServer } from '../support/repo';
import { seedReplies } from '../support/seed-transcript';
import { temporalAddress, TEST_API_KEY } from '../support/test-worker';
import { spawnWorkerProcess, writeMcpConfig, type WorkerProcess } from '../support/worker-process';

describe('mcp-host CLI', () => {
  let fake: FakeMessagesApi;
  let worker: WorkerProcess;
  const taskQueue = `cli-${randomUUID()}`;

  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
    runCliProcess(args, { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue, ...env });

  beforeAll(async () => {
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    worker = await spawnWorkerProcess({
      address: temporalAddress(),
      taskQueue,
      mcpConfigPath: writeMcpConfig([weatherServer()]),
      claudeBaseUrl: fake.url,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await fake?.close();
  });

  test('the seed conversation through start --wait, send, history, status, end', async () => {
    fake.enqueue(...seedReplies());
    const id = `cli-${randomUUID()}`;
    // --no-cache: this test pins the seed's exact wire structure; caching is tested on its own.
    const started = await cli(['start', '--id', id, '--no-cache', '--system', '你是一个专业的天气助手，回答简洁。', '--wait', '你好']);
    expect(started).toMatchObject({ code: 0, stdout: `${id}\n你好，有什么可以帮你？\n` });
    expect(await cli(['send', id, '北京今天天气怎么样'])).toMatchObject({ code: 0, stdout: '北京今天晴，25°C，适合出门。\n' });
    expect(await cli(['send', id, '那上海呢'])).toMatchObject({ code: 0, stdout: '上海今天多云，22°C。\n' });

    // The third turn's request: the seed's structure, system on top, tools, the seed's headers.
    const third = fake.requests[3]!;
    expect(third.headers['x-api-key']).toBe(TEST_API_KEY);
    expect(third.headers['anthropic-version']).toBe('2023-06-01');
    const body = third.body as { system: string; messages: MessageParam[]; tools: Array<{ name: string }> };
    expect(body.system).toBe('你是一个专业的天气助手，回答简洁。');
    expect(body.tools.map((t) => t.name)).toEqual(['get_weather']);
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(body.messages[4]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01AbC', content: '北京今天晴，25°C' }] });
    expect(body.messages[6]).toEqual({ role: 'user', content: '那上海呢' });

    const historyJson = await cli(['history', id, '--json']);
    expect(historyJson.code).toBe(0);
    const messages = JSON.parse(historyJson.stdout) as MessageParam[];
    expect(messages).toHaveLength(10);
    expect(messages.slice(0, 7)).toEqual(body.messages);
    const historyText = await cli(['history', id]);
    expect(historyText.stdout).toContain('→ tool_use get_weather {"city":"北京"} (toolu_01AbC)');
    expect(historyText.stdout).toContain('← tool_result (toolu_02SH): 上海今天多云，22°C');

    const statusJson = await cli(['status', id, '--json']);
    const status = JSON.parse(statusJson.stdout) as ConversationStatus;
    expect(status).toMatchObject({ state: 'idle', turnsCompleted: 3, modelCalls: 5, toolCalls: 2, messageCount: 10, lastStopReason: 'end_turn' });
    expect((await cli(['status', id])).stdout).toMatch(/model calls: 5 {3}tool calls: 2/);

    const ended = await cli(['end', id]);
    expect(ended).toMatchObject({ code: 0 });
    expect(ended.stdout).toContain('3 turns, 10 messages');
    // Ending it again answers with the same summary (the end signal is sent first, then checked).
    const again = await cli(['end', id]);
    expect({ ...again, stderr: again.stderr }).toMatchObject({ code: 0, stdout: ended.stdout, stderr: '' });
    expect((await cli(['status', id, '--json'])).code).toBe(0);
    const afterEnd = await cli(['send', id, 'still there?']);
    expect(afterEnd.code).toBe(1);
    expect(afterEnd.stderr).toMatch(/ended|completed/);
  });

  test('errors: unknown id, unreachable server, bad arguments — one line, non-zero exit', async () => {
    const unknown = await cli(['status', 'no-such-conversation']);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr.trim()).toBe('mcp-host: no conversation with id "no-such-conversation"');
    // Commands that act first and check only on NOT_FOUND say the same.
    for (const args of [['end', 'no-such-conversation'], ['send', 'no-such-conversation', 'hi']]) {
      const run = await cli(args);
      expect({ args, code: run.code, stderr: run.stderr.trim() }).toEqual({ args, code: 1, stderr: 'mcp-host: no conversation with id "no-such-conversation"' });
    }

    const unreachable = await cli(['status', 'x'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^mcp-host: cannot reach Temporal at 127\.0\.0\.1:1/);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);

    const badFlag = await cli(['start', '--max-iterations', 'zero', 'hi']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--max-iterations must be a positive integer');
    expect((await cli(['send', 'only-id'])).code).toBe(2);
    expect((await cli(['frobnicate'])).stderr).toContain('unknown command "frobnicate"');
    const empty = await cli(['start', '   ']);
    expect(empty.code).toBe(1);
    expect(empty.stderr.trim()).toBe('mcp-host: the message is empty');
  });
});
