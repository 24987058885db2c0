/**
 * User turns arriving by signal and by update while another turn runs, the update's validator, and
 * the end signal — on the real dev server with the real Anthropic SDK against the wire-level fake.
 * A `respond` step that waits on a gate holds a turn "in flight" for exactly as long as a test needs,
 * so nothing here depends on timing.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { ScriptStep } from '../../src/testing';
import { endSignal, messagesQuery, sendMessageUpdate, statusQuery, userMessageSignal } from '../../src/workflows/definitions';
import { messagesOf, startConversation, validationErrors, waitFor } from '../support/loop-helpers';
import { startTestWorker, type TestWorker } from '../support/test-worker';

const ok = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

/** Every gate made, so a failed test cannot leave an activity waiting on one through shutdown. */
const gates: Array<() => void> = [];

/** A step that answers `text` once `open()` is called: the turn stays in flight until then. */
function gated(text: string): { step: ScriptStep; open: () => void } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  gates.push(() => open());
  return {
    step: {
      kind: 'respond',
      respond: async () => {
        await gate;
        return ok(text);
      },
    },
    open: () => open(),
  };
}

describe('user turns: signals, updates, end', () => {
  let w: TestWorker;
  beforeAll(async () => {
    // No MCP server: these tests are about how turns are queued.
    w = await startTestWorker({ servers: [] });
  });
  afterAll(async () => {
    for (const open of gates) open();
    await w?.stop();
  });
  beforeEach(() => {
    // Steps left by a failed test would answer this test's requests: fail clearly instead.
    expect(w.fake.pending()).toBe(0);
  });

  test('turns sent while a turn runs are queued and run in order; an update gets its own turn\'s result', async () => {
    const from = w.fake.requests.length;
    const first = gated('one');
    w.fake.enqueue(first.step, ok('two'), ok('three'));
    const handle = await startConversation(w, {}, 'turns');
    await handle.signal(userMessageSignal, 'first');
    await waitFor('the first turn to reach Claude', () => (w.fake.requests.length > from ? true : undefined));

    await handle.signal(userMessageSignal, 'second');
    // An update sent now waits for its own turn (the third), not for the running one.
    const third = handle.executeUpdate(sendMessageUpdate, { args: ['third'] });
    const queued = await waitFor('two queued turns', async () => {
      const status = await handle.query(statusQuery);
      return status.pendingTurns === 2 ? status : undefined;
    });
    expect(queued).toMatchObject({ state: 'running', currentTurn: 1, turnsCompleted: 0, messageCount: 1 });
    // Nothing of the queued turns is in the transcript yet: the running turn's request stays valid.
    expect(await handle.query(messagesQuery)).toEqual([{ role: 'user', content: 'first' }]);

    first.open();
    expect(await third).toMatchObject({ turnId: 3, status: 'completed', text: 'three' });
    const status = await handle.query(statusQuery);
    expect(status).toMatchObject({ state: 'idle', turnsCompleted: 3, pendingTurns: 0, modelCalls: 3, lastTurn: { turnId: 3 } });

    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(3);
    expect(validationErrors(requests)).toEqual([null, null, null]);
    expect(messagesOf(requests[2])).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'one' }] },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
      { role: 'user', content: 'third' },
    ]);
  });

  test('empty text: the update is refused by its validator, the signal is ignored, and nothing is appended', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(ok('hello'), ok('still here'));
    const handle = await startConversation(w, {}, 'turns');
    await handle.executeUpdate(sendMessageUpdate, { args: ['hi'] });
    const before = await handle.query(statusQuery);

    for (const empty of ['', '   \n\t']) {
      const refused = handle.executeUpdate(sendMessageUpdate, { args: [empty] });
      await expect(refused).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
      await expect(refused).rejects.toMatchObject({ cause: { message: 'the message is empty' } });
    }
    await handle.signal(userMessageSignal, '  ');
    // The signal is in history before this update, so it has been handled by the time the update returns.
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['there?'] })).toMatchObject({ turnId: 2, text: 'still here' });

    const after = await handle.query(statusQuery);
    expect(after).toMatchObject({ turnsCompleted: before.turnsCompleted + 1, modelCalls: before.modelCalls + 1, pendingTurns: 0 });
    expect(await handle.query(messagesQuery)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { role: 'user', content: 'there?' },
      { role: 'assistant', content: [{ type: 'text', text: 'still here' }] },
    ]);
    expect(w.fake.requests.slice(from)).toHaveLength(2);
    // A refused update leaves no trace in history (it is rejected before it is accepted).
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.filter((event) => event.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(2);
  });

  test('end completes the workflow with a summary once the pending turns are done', async () => {
    const from = w.fake.requests.length;
    const running = gated('working');
    w.fake.enqueue(running.step, ok('last answer'));
    const handle = await startConversation(w, {}, 'turns');
    await handle.signal(userMessageSignal, 'start');
    await waitFor('the first turn to reach Claude', () => (w.fake.requests.length > from ? true : undefined));
    await handle.signal(userMessageSignal, 'one more');
    await handle.signal(endSignal);
    // After end, new turns are refused (by the validator, or because the workflow is closed).
    await expect(handle.executeUpdate(sendMessageUpdate, { args: ['too late'] })).rejects.toThrow();
    await handle.signal(userMessageSignal, 'also too late').catch(() => undefined);

    running.open();
    const summary = await handle.result();
    expect(summary).toMatchObject({
      messages: 4,
      status: { state: 'ended', turnsCompleted: 2, pendingTurns: 0, currentTurn: null, modelCalls: 2, lastTurn: { turnId: 2, text: 'last answer' } },
    });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    expect(messagesOf(requests[1]).at(-1)).toEqual({ role: 'user', content: 'one more' });
    expect(await handle.query(messagesQuery)).toHaveLength(4);
  });
});
