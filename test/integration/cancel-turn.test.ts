/**
 * Issue 13 item 5: cancellation. A cancelled workflow ends without the host writing tool results
 * on its way out (a catch-all must not swallow the cancellation), and a user can cancel the running
 * turn alone: every tool_use is answered, the turn ends `cancelled`, and the next turn works.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { ConversationClient } from '../../src/client/conversation-client';
import type { ScriptStep } from '../../src/testing';
import type { ContentBlockParam, TurnResult } from '../../src/conversation/types';
import { messagesQuery, sendMessageUpdate, statusQuery, userMessageSignal } from '../../src/workflows/definitions';
import { messagesOf, startConversation, validationErrors, waitFor } from '../support/loop-helpers';
import { tsServer } from '../support/repo';
import { startTestWorker, type TestWorker } from '../support/test-worker';

const ok = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

/** A reply asking for a slow tool and a fast one at once. */
const slowAndFast = (id: string): ScriptStep => ({
  kind: 'message',
  content: [
    { type: 'text', text: 'working on it' },
    { type: 'tool_use', id: `toolu_${id}_slow`, name: 'slow_echo', input: { text: id, ms: 20_000 } },
    { type: 'tool_use', id: `toolu_${id}_fast`, name: 'add', input: { a: 1, b: 2 } },
  ],
  stop_reason: 'tool_use',
});

/** Opens every gate a test made, so no request waits through shutdown. */
const gates: Array<() => void> = [];

/** An answer that comes only once its gate opens: a Claude call in flight for as long as a test needs. */
function gated(text: string): ScriptStep {
  const gate = new Promise<void>((resolve) => gates.push(resolve));
  return {
    kind: 'respond',
    respond: async () => {
      await gate;
      return ok(text);
    },
  };
}

describe('cancellation', () => {
  let w: TestWorker;
  beforeAll(async () => {
    w = await startTestWorker({ servers: [tsServer('lab', 'test/fixtures/lab-server.ts')] });
  });
  afterAll(async () => {
    for (const open of gates) open();
    await w?.stop();
  });
  beforeEach(() => {
    expect(w.fake.pending()).toBe(0);
  });

  test('a cancelled workflow ends cancelled, without a host tool result for the call it cut', async () => {
    w.fake.enqueue(slowAndFast('wf'));
    const handle = await startConversation(w, {}, 'cancel');
    await handle.signal(userMessageSignal, 'go');
    await waitFor('both tool calls to start', async () => ((await handle.query(statusQuery)).toolCalls === 2 ? true : undefined), 30_000);
    await handle.cancel();

    const ended = await handle.result().then(() => undefined, (err: unknown) => err);
    expect(ended).toBeInstanceOf(WorkflowFailedError);
    expect((ended as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    const messages = await handle.query(messagesQuery);
    expect(JSON.stringify(messages)).not.toContain('[host]');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  test('the user cancels the running turn: every tool_use answered, status cancelled, the next turn works', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(slowAndFast('turn'));
    const handle = await startConversation(w, {}, 'cancel');
    const first = handle.executeUpdate(sendMessageUpdate, { args: ['go'] });
    await waitFor('both tool calls to start', async () => ((await handle.query(statusQuery)).toolCalls === 2 ? true : undefined), 30_000);

    const cancelled = await handle.executeUpdate<{ turn: TurnResult | null }, []>('cancelTurn', { args: [] });
    expect(cancelled.turn).toMatchObject({ turnId: 1, status: 'cancelled' });
    expect(await first).toMatchObject({ turnId: 1, status: 'cancelled', toolCalls: 2 });

    const messages = await handle.query(messagesQuery);
    expect(messages).toHaveLength(3);
    const results = messages[2]?.content as ContentBlockParam[];
    expect(results.map((block) => block.type === 'tool_result' && block.tool_use_id)).toEqual(['toolu_turn_slow', 'toolu_turn_fast']);
    expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('cancelled') as unknown });
    // Nothing runs on: no turn, and nothing left to cancel.
    expect(await handle.query(statusQuery)).toMatchObject({ state: 'idle', currentTurn: null, turnsCompleted: 1 });
    expect(await handle.executeUpdate('cancelTurn', { args: [] })).toEqual({ turn: null });

    w.fake.enqueue(ok('still here'));
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['next'] })).toMatchObject({ turnId: 2, status: 'completed', text: 'still here' });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    // The next turn's text joins the user message of the cancelled turn's tool results.
    expect(messagesOf(requests[1])).toEqual([...messages.slice(0, 2), { role: 'user', content: [...results, { type: 'text', text: 'next' }] }]);
  });

  test('ConversationClient.cancelTurn during a Claude call: the turn ends cancelled, the turn queued after it runs', async () => {
    const conversations = new ConversationClient(w.client, { taskQueue: w.taskQueue });
    const from = w.fake.requests.length;
    w.fake.enqueue(gated('never seen'), ok('queued answer'));
    const { id } = await conversations.start('first');
    await conversations.post(id, 'second');
    await waitFor('the first Claude call', () => (w.fake.requests.length > from ? true : undefined), 30_000);

    expect(await conversations.cancelTurn(id)).toMatchObject({ turnId: 1, status: 'cancelled', modelCalls: 0 });
    const done = await waitFor('the queued turn', async () => {
      const status = await conversations.status(id);
      return status.turnsCompleted === 2 ? status : undefined;
    });
    expect(done.lastTurn).toMatchObject({ turnId: 2, status: 'completed', text: 'queued answer' });
    expect(await conversations.history(id)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'queued answer' }] },
    ]);
    expect(await conversations.cancelTurn(id)).toBeNull();
  });
});
