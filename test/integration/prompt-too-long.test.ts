/**
 * Issue 13 item 2: an over-long prompt must not lock a conversation. A 400 "prompt is too long"
 * escalates the context strategy and the call is made once more with it; a user can change the
 * strategy of a running conversation.
 */
import type { ScriptStep } from '../../src/testing';
import { sendMessageUpdate, setContextStrategyUpdate, statusQuery } from '../../src/workflows/definitions';
import { startConversation, validationErrors } from '../support/loop-helpers';
import { startTestWorker, type TestWorker } from '../support/test-worker';
import type { ContextStrategy } from '../../src/context/context-strategy';

const ok = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });
const tooLong: ScriptStep = { kind: 'error', status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' };

describe('an over-long prompt', () => {
  let w: TestWorker;
  beforeAll(async () => {
    w = await startTestWorker({ servers: [] });
  });
  afterAll(async () => {
    await w?.stop();
  });
  beforeEach(() => {
    expect(w.fake.pending()).toBe(0);
  });

  test('a 400 "prompt is too long" escalates the strategy and the call is made once more', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(ok('one'), tooLong, ok('two'));
    const handle = await startConversation(w, {}, 'too-long');
    await handle.executeUpdate(sendMessageUpdate, { args: ['first'] });
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['second'] })).toMatchObject({ turnId: 2, status: 'completed', text: 'two', modelCalls: 1 });
    expect((await handle.query(statusQuery)).context.strategy).toBe('placeholder_tool_results:2');
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(3);
    expect(validationErrors(requests)).toEqual([null, null, null]);
  });

  test('twice in a row: the turn fails with the API\'s message, and the next turn is sent with the stronger strategy', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(tooLong, tooLong, ok('fine'));
    const handle = await startConversation(w, { context: { kind: 'last_turns', turns: 4 } }, 'too-long');
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['first'] })).toMatchObject({ status: 'failed', error: expect.stringContaining('prompt is too long') as unknown });
    // Escalated on each refusal (last_turns:4 → 2 → 1); retried once.
    expect((await handle.query(statusQuery)).context.strategy).toBe('last_turns:1');
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['again'] })).toMatchObject({ status: 'completed', text: 'fine' });
    expect(w.fake.requests.length - from).toBe(3);
  });

  test('a user changes the strategy of a running conversation (the setContextStrategy update)', async () => {
    w.fake.enqueue(ok('one'), ok('two'));
    const handle = await startConversation(w, {}, 'too-long');
    await handle.executeUpdate(sendMessageUpdate, { args: ['first'] });
    const strategy: ContextStrategy = { kind: 'last_turns', turns: 1 };
    expect(await handle.executeUpdate(setContextStrategyUpdate, { args: [strategy] })).toBe('last_turns:1');
    await expect(handle.executeUpdate(setContextStrategyUpdate, { args: [{ kind: 'last_turns', turns: 0 }] })).rejects.toThrow();
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['second'] })).toMatchObject({ status: 'completed', text: 'two' });
    const last = w.fake.requests.at(-1)?.body as { messages: unknown[] };
    expect(last.messages).toEqual([{ role: 'user', content: 'second' }]);
    expect((await handle.query(statusQuery)).context.strategy).toBe('last_turns:1');
  });
});
