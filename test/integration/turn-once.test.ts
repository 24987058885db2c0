/**
 * Issue 9: a user turn runs once, whatever the client retries. Temporal deduplicates an update id
 * only within one run, so an update retried after the conversation continued as new (a client
 * retrying across a worker kill or a server restart) reaches the next run. The workflow remembers
 * the update ids it accepted across continue-as-new and answers a repeat with the turn's result.
 */
import type { ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { messagesQuery, sendMessageUpdate, statusQuery, userMessageSignal } from '../../src/workflows/definitions';
import { startConversation, waitFor, type ConversationHandle } from '../support/loop-helpers';
import { startTestWorker, type TestWorker } from '../support/test-worker';

const ok = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

/** Waits until the conversation's current run is not `runId` (it continued as new). */
async function nextRun(handle: ConversationHandle, runId: string): Promise<string> {
  return waitFor('the conversation to continue as new', async () => {
    const current = (await handle.describe()).runId;
    return current !== runId ? current : undefined;
  });
}

describe('a user turn runs once', () => {
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

  test('an update id seen by the previous run gets that turn\'s result again: no new turn, transcript unchanged', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(ok('first answer'));
    // A few events after one turn: the run continues as new as soon as the turn is done.
    const handle = await startConversation(w, { continueAsNewAfterEvents: 10 }, 'once');
    const firstRun = (await handle.describe()).runId;
    const first = await handle.executeUpdate(sendMessageUpdate, { args: ['hello'], updateId: 'turn-x' });
    expect(first).toMatchObject({ turnId: 1, status: 'completed', text: 'first answer' });
    const messages = await handle.query(messagesQuery);

    await nextRun(handle, firstRun);
    // The next answer is for the next turn; a repeated turn would take it (and fail fast here).
    w.fake.enqueue(ok('second answer'));
    // The same update again, as a client retrying it would send it: same id, same text.
    const again = await handle.executeUpdate(sendMessageUpdate, { args: ['hello'], updateId: 'turn-x' });
    expect(again).toEqual(first);
    expect(await handle.query(messagesQuery)).toEqual(messages);
    expect(await handle.query(statusQuery)).toMatchObject({ turnsCompleted: 1, pendingTurns: 0, currentTurn: null });
    expect(w.fake.requests.length - from).toBe(1);

    // The conversation goes on: a new id is a new turn.
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['more'], updateId: 'turn-y' })).toMatchObject({ turnId: 2, text: 'second answer' });
    expect(await handle.query(messagesQuery)).toHaveLength(4);
  });

  test('a signal\'s message id seen by the previous run is not a second turn', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(ok('first answer'));
    const handle = await startConversation(w, { continueAsNewAfterEvents: 10 }, 'once');
    const firstRun = (await handle.describe()).runId;
    await handle.signal(userMessageSignal, 'hello', { messageId: 'm-1' });
    await waitFor('the first turn', async () => ((await handle.query(statusQuery)).turnsCompleted === 1 ? true : undefined));
    await nextRun(handle, firstRun);
    w.fake.enqueue(ok('second answer'));
    await handle.signal(userMessageSignal, 'hello', { messageId: 'm-1' });
    // The update after it runs after anything the signal queued: it is turn 2 only if the repeat was dropped.
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['more'] })).toMatchObject({ turnId: 2, text: 'second answer' });
    expect((await handle.query(messagesQuery)).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(w.fake.requests.length - from).toBe(2);
  });

  test('a start sent again with its message id joins the conversation it made; another start of that id is refused', async () => {
    // As when the server took a start and restarted before answering: the start comes again.
    const conversations = new ConversationClient(w.client, { taskQueue: w.taskQueue });
    w.fake.enqueue(ok('made'));
    const id = `turn-once-start-${Date.now()}`;
    const first = await conversations.start('hello', { id, wait: true, messageId: 'start-once' });
    expect(first.result).toMatchObject({ turnId: 1, text: 'made' });
    expect(await conversations.start('hello', { id, wait: true, messageId: 'start-once' })).toEqual(first);
    await expect(conversations.start('hello', { id, wait: true, messageId: 'someone-else' })).rejects.toThrow(
      `a conversation with id "${id}" already exists`,
    );
    expect((await conversations.status(id)).turnsCompleted).toBe(1);
    expect(await conversations.history(id)).toHaveLength(2);
  });

  test('ConversationClient: send and post with the same messageId are one turn each', async () => {
    const conversations = new ConversationClient(w.client, { taskQueue: w.taskQueue });
    w.fake.enqueue(ok('one'), ok('two'));
    const { id, result } = await conversations.start('first', { wait: true, messageId: 'start-1', continueAsNewAfterEvents: 10, promptCache: { enabled: false } });
    expect(result).toMatchObject({ turnId: 1, text: 'one' });
    const second = await conversations.send(id, 'second', { messageId: 'send-2' });
    expect(second).toMatchObject({ turnId: 2, text: 'two' });
    expect(await conversations.send(id, 'second', { messageId: 'send-2' })).toEqual(second);
    await conversations.post(id, 'second', { messageId: 'send-2' }); // another namespace: a signal id
    w.fake.enqueue(ok('three'));
    await waitFor('the posted turn', async () => ((await conversations.status(id)).turnsCompleted === 3 ? true : undefined));
    await conversations.post(id, 'again', { messageId: 'send-2' });
    w.fake.enqueue(ok('four'));
    expect(await conversations.send(id, 'last')).toMatchObject({ turnId: 4, text: 'four' });
    expect(await conversations.history(id)).toHaveLength(8);
  });
});
