/**
 * Issue 10, Web UI readability: what a conversation shows in the Web UI, read through the APIs the
 * UI itself uses, on the run's dev server (which registers the conversation search attributes, as
 * `npm start`'s does): a summary on every activity, the static summary and details of the start,
 * current details kept current, search attributes and a memo upserted as the state changes, and
 * none of it on a conversation started without the attributes (a namespace that lacks them).
 */
import { randomUUID } from 'node:crypto';
import { startConversation } from '../../src/client/commands';
import type { ScriptStep } from '../../src/testing';
import { conversationWorkflow } from '../../src/workflows';
import { endSignal, sendMessageUpdate } from '../../src/workflows/definitions';
import {
  STATE_ATTRIBUTE,
  TOKENS_ATTRIBUTE,
  TOOL_CALLS_ATTRIBUTE,
  TURNS_ATTRIBUTE,
  WAITING_APPROVAL_ATTRIBUTE,
} from '../../src/workflows/progress-attributes';
import { conversationOptions } from '../../src/client/conversation-options';
import { waitFor } from '../support/loop-helpers';
import { tsServer, weatherServer } from '../support/repo';
import { startTestWorker, type TestWorker } from '../support/test-worker';
import { activitySummaries, currentDetailsOf, eventTypes, upsertedAttributes } from '../support/web-ui-metadata';

const MODEL = 'claude-sonnet-4-6';
const LONG_CITY = '长'.repeat(400);

const weatherCalls = (...cities: string[]): ScriptStep => ({
  kind: 'message',
  content: cities.map((city, i) => ({ type: 'tool_use' as const, id: `toolu_w${i}_${city.length}`, name: 'get_weather', input: { city } })),
  stop_reason: 'tool_use',
});
const answer = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

describe('the Web UI view of a conversation', () => {
  let w: TestWorker;
  beforeAll(async () => {
    w = await startTestWorker({ servers: [weatherServer(), tsServer('lab', 'test/fixtures/lab-server.ts')] });
  });
  afterAll(async () => {
    await w?.stop();
  });

  test('a multi-tool turn: activity summaries, static summary and details, current details, search attributes, memo', async () => {
    w.fake.enqueue(weatherCalls('北京', '上海'), weatherCalls(LONG_CITY), answer('北京晴，上海多云。'));
    const id = `web-ui-${randomUUID()}`;
    const started = await startConversation({ client: w.client, taskQueue: w.taskQueue }, '北京和上海今天天气怎么样？', {
      id,
      wait: true,
      conversation: { model: MODEL, system: 'a secret-free but long system prompt '.repeat(20) },
      defaultModel: MODEL,
    });
    expect(started.result?.status).toBe('completed');
    const handle = w.client.workflow.getHandle(id);

    const summaries = await activitySummaries(handle);
    expect(summaries).toEqual([
      ['listTools', 'list tools: first listing'],
      ['callClaude', `claude round 1 · ${MODEL}`],
      ['callTool', 'get_weather {"city":"北京"} · weather'],
      ['callTool', 'get_weather {"city":"上海"} · weather'],
      ['callClaude', `claude round 2 · after tool_use ×2 · ${MODEL}`],
      ['callTool', expect.stringMatching(/^get_weather \{"city":"长+… · weather$/)],
      ['callClaude', `claude round 3 · after tool_use ×1 · ${MODEL}`],
    ]);
    // Long arguments are cut: 200 characters of JSON at most.
    expect(Array.from(summaries[5]![1]!).length).toBeLessThanOrEqual('get_weather '.length + 200 + ' · weather'.length);

    const description = await handle.describe();
    expect(await description.staticSummary()).toBe('北京和上海今天天气怎么样？');
    const details = await description.staticDetails();
    expect(details).toContain('**first message:** 北京和上海今天天气怎么样？');
    expect(details).toContain(`model: ${MODEL}`);
    expect(details).toContain('system prompt: 740 characters');
    expect(details).not.toContain('secret-free');

    const attributes = description.typedSearchAttributes;
    expect(attributes.get(STATE_ATTRIBUTE)).toBe('idle');
    expect(attributes.get(TURNS_ATTRIBUTE)).toBe(1);
    expect(attributes.get(TOOL_CALLS_ATTRIBUTE)).toBe(3);
    expect(attributes.get(TOKENS_ATTRIBUTE)).toBeGreaterThan(0);
    expect(attributes.get(WAITING_APPROVAL_ATTRIBUTE)).toBe(false);
    expect(description.memo).toEqual({ startMessageId: expect.any(String), state: 'idle', turns: 1, lastMessage: '北京晴，上海多云。' });

    const current = await currentDetailsOf(handle);
    expect(current).toContain('**idle**');
    expect(current).toContain('turns 1 · model calls 3 · tool calls 3');
    expect(current).toContain('servers: weather (1), lab (');
    expect(current).toContain('last answer: 北京晴，上海多云。');
    expect(current).toMatch(/tokens \d+ \(in \d+, out \d+/);

    // Visibility (what the Web UI's list filters on) catches up.
    await waitFor('the conversation in a search-attribute query', async () => {
      const found: string[] = [];
      for await (const e of w.client.workflow.list({ query: `McpHostState = "idle" AND McpHostToolCalls = 3 AND WorkflowId = "${id}"` })) found.push(e.workflowId);
      return found.length === 1 ? found : undefined;
    });

    await handle.signal(endSignal);
    await handle.result();
    const ended = await handle.describe();
    expect(ended.typedSearchAttributes.get(STATE_ATTRIBUTE)).toBe('ended');
    expect(ended.memo).toEqual({ startMessageId: expect.any(String), state: 'ended', turns: 1, lastMessage: '北京晴，上海多云。' });
    // Two upserts for the turn (running, idle) and one for the end, besides the SDK's own
    // TemporalChangeVersion of the patch; no failed workflow task.
    const ours = ['McpHostState', 'McpHostTokens', 'McpHostToolCalls', 'McpHostTurns'];
    expect((await upsertedAttributes(handle)).filter((names) => names.includes('McpHostState'))).toEqual([ours, ours, ours]);
    expect(await eventTypes(handle)).not.toContain('EVENT_TYPE_WORKFLOW_TASK_FAILED');
  });

  test('while a tool runs, the current details and the state attribute say so', async () => {
    w.fake.enqueue(
      { kind: 'message', content: [{ type: 'tool_use', id: 'toolu_slow', name: 'slow_echo', input: { text: 'hello', ms: 3000 } }], stop_reason: 'tool_use' },
      answer('done'),
    );
    const { id } = await startConversation({ client: w.client, taskQueue: w.taskQueue }, 'echo slowly', {
      conversation: { model: MODEL },
      defaultModel: MODEL,
    });
    const handle = w.client.workflow.getHandle(id);
    const during = await waitFor('the running tool in the current details', async () => {
      const details = await currentDetailsOf(handle);
      return details.includes('running 1 tool') ? details : undefined;
    });
    expect(during).toContain('**running** · turn 1');
    expect(during).toContain('running 1 tool: slow_echo {"text":"hello","ms":3000} · lab');
    expect((await handle.describe()).typedSearchAttributes.get(STATE_ATTRIBUTE)).toBe('running');
    await waitFor('the turn to end', async () => ((await currentDetailsOf(handle)).includes('**idle**') ? true : undefined), 20_000);
    await handle.signal(endSignal);
    await handle.result();
  });

  test('a conversation started without the search attributes (a namespace without them) runs without upserting any', async () => {
    w.fake.enqueue(weatherCalls('北京'), answer('晴'));
    const handle = await w.client.workflow.start(conversationWorkflow, {
      taskQueue: w.taskQueue,
      workflowId: `web-ui-plain-${randomUUID()}`,
      args: [{ options: conversationOptions({ model: MODEL }) }],
    });
    const result = await handle.executeUpdate(sendMessageUpdate, { args: ['北京天气'] });
    expect(result.status).toBe('completed');
    await handle.signal(endSignal);
    await handle.result();
    // The only upsert is the SDK's own record of the one patch a new run takes (src/workflows/patches.ts).
    expect(await upsertedAttributes(handle)).toEqual([['TemporalChangeVersion']]);
    expect(await eventTypes(handle)).not.toContain('EVENT_TYPE_WORKFLOW_TASK_FAILED');
    // The memo needs no registration: `mcp-host list` reads the last message from it everywhere.
    expect((await handle.describe()).memo).toEqual({ state: 'ended', turns: 1, lastMessage: '晴' });
    // Summaries and details are there all the same.
    expect((await activitySummaries(handle)).map(([, s]) => s)).toContain('get_weather {"city":"北京"} · weather');
  });
});
