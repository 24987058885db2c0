/**
 * Claude API errors inside the durable loop: real dev server, the real Anthropic SDK against the
 * wire-level fake. What Temporal retries (and how long it waits) is read back from the workflow's
 * own event history, not from the code that decides it.
 */
import type { ScriptStep } from '../../src/testing';
import { sendMessageUpdate, statusQuery } from '../../src/workflows/definitions';
import { messagesOf, startConversation, validationErrors, type ConversationHandle } from '../support/loop-helpers';
import { startTestWorker, type TestWorker } from '../support/test-worker';

type HistoryEvent = NonNullable<Awaited<ReturnType<ConversationHandle['fetchHistory']>>['events']>[number];
type StartedAttributes = NonNullable<HistoryEvent['activityTaskStartedEventAttributes']>;

/** The callClaude activities of a run: how each was started (attempt, last failure) and how it ended. */
async function claudeActivities(handle: ConversationHandle): Promise<
  Array<{ started: StartedAttributes | undefined; failed: boolean; completed: boolean }>
> {
  const events: HistoryEvent[] = (await handle.fetchHistory()).events ?? [];
  const of = (event: HistoryEvent, scheduledId: string): boolean =>
    [event.activityTaskStartedEventAttributes, event.activityTaskCompletedEventAttributes, event.activityTaskFailedEventAttributes]
      .some((attributes) => attributes && String(attributes.scheduledEventId) === scheduledId);
  return events
    .filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'callClaude')
    .map((scheduled) => {
      const id = String(scheduled.eventId);
      const mine = events.filter((event) => of(event, id));
      return {
        started: mine.find((event) => event.activityTaskStartedEventAttributes)?.activityTaskStartedEventAttributes ?? undefined,
        failed: mine.some((event) => event.activityTaskFailedEventAttributes),
        completed: mine.some((event) => event.activityTaskCompletedEventAttributes),
      };
    });
}

const ok = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

describe('Claude API errors in the loop', () => {
  let w: TestWorker;
  beforeAll(async () => {
    // No MCP server: these turns are about the Claude call alone.
    w = await startTestWorker({ servers: [] });
  });
  afterAll(async () => {
    await w?.stop();
  });
  beforeEach(() => {
    // Steps left by a failed test would answer this test's requests: fail clearly instead.
    expect(w.fake.pending()).toBe(0);
  });

  test('a 529 with retry-after: 1 is retried after the delay the API asked for, and the turn completes', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue({ kind: 'error', status: 529, headers: { 'retry-after': '1' } }, ok('back again'));
    const handle = await startConversation(w);
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['hello'] });
    expect(turn).toMatchObject({ status: 'completed', text: 'back again', modelCalls: 1 });

    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(messagesOf(requests[1])).toEqual(messagesOf(requests[0]));
    // The retry waited the second the API asked for (the history below shows it was the header's
    // nextRetryDelay, not the host's own 1 s first backoff, src/errors/claude-retry-policy.ts; the next test tells the two apart by time).
    const gap = requests[1]!.receivedAt - requests[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(4000);

    const calls = await claudeActivities(handle);
    expect(calls).toHaveLength(1); // one activity, two attempts: the retry is Temporal's, not the SDK's
    expect(calls[0]).toMatchObject({ completed: true, failed: false });
    expect(calls[0]!.started?.attempt).toBe(2);
    const lastFailure = calls[0]!.started?.lastFailure;
    expect(lastFailure?.applicationFailureInfo?.type).toBe('claude.overloaded_error');
    expect(lastFailure?.applicationFailureInfo?.nonRetryable).toBeFalsy();
    expect(lastFailure?.message).toContain('529');
    expect(Number(lastFailure?.applicationFailureInfo?.nextRetryDelay?.seconds ?? 0)).toBe(1);
  });

  test('retry-after-ms wins over retry-after, and Temporal waits that long rather than its own 1 s backoff (src/errors/claude-retry-policy.ts)', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue({ kind: 'error', status: 429, headers: { 'retry-after-ms': '2000', 'retry-after': '6' } }, ok('fine'));
    const handle = await startConversation(w);
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['hi'] });
    expect(turn).toMatchObject({ status: 'completed', text: 'fine' });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    // The host's backoff alone would wait 1 s (claudeFailureDelayMs); `retry-after` alone 6 s.
    const gap = requests[1]!.receivedAt - requests[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(1950);
    expect(gap).toBeLessThan(5500);
    const lastFailure = (await claudeActivities(handle))[0]!.started?.lastFailure;
    expect(lastFailure?.applicationFailureInfo?.type).toBe('claude.rate_limit_error');
    expect(Number(lastFailure?.applicationFailureInfo?.nextRetryDelay?.seconds ?? 0)).toBe(2);
  });

  test('a 400 fails the turn cleanly, is not retried, and the next turn sends a valid request', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      { kind: 'error', status: 400, message: 'messages.0.content: scripted rejection' },
      ok('all good now'),
    );
    const handle = await startConversation(w);
    const failed = await handle.executeUpdate(sendMessageUpdate, { args: ['first try'] });
    expect(failed).toMatchObject({ status: 'failed', modelCalls: 0, toolCalls: 0, text: '' });
    expect(failed.error).toContain('claude.invalid_request_error');
    expect(failed.error).toContain('messages.0.content: scripted rejection');
    // The update only returns once the activity is finally done, so this count is final.
    expect(w.fake.requests.slice(from)).toHaveLength(1);
    const calls = await claudeActivities(handle);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ failed: true, completed: false });
    expect(calls[0]!.started?.attempt).toBe(1);

    const next = await handle.executeUpdate(sendMessageUpdate, { args: ['second try'] });
    expect(next).toMatchObject({ status: 'completed', text: 'all good now', modelCalls: 1 });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    // The failed turn's text stays, joined with the new one: two user messages in a row are not valid.
    expect(messagesOf(requests[1])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first try' }, { type: 'text', text: 'second try' }] },
    ]);
    const status = await handle.query(statusQuery);
    expect(status).toMatchObject({ turnsCompleted: 2, modelCalls: 1, messageCount: 2, lastTurn: { status: 'completed' } });
  });

  test('x-should-retry: false on a 529 is obeyed: not retried, the turn fails', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue({ kind: 'error', status: 529, headers: { 'x-should-retry': 'false', 'retry-after-ms': '10' } });
    const handle = await startConversation(w);
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['hello'] });
    expect(turn.status).toBe('failed');
    expect(turn.error).toContain('claude.overloaded_error');
    expect(w.fake.requests.slice(from)).toHaveLength(1);
    expect(w.fake.pending()).toBe(0);
    const calls = await claudeActivities(handle);
    expect(calls[0]).toMatchObject({ failed: true });
    expect(calls[0]!.started?.attempt).toBe(1);
  });

  test('x-should-retry: true on a 400 is obeyed: retried, the turn completes', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      { kind: 'error', status: 400, message: 'transient, says the server', headers: { 'x-should-retry': 'true', 'retry-after-ms': '100' } },
      ok('second attempt worked'),
    );
    const handle = await startConversation(w);
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['hello'] });
    expect(turn).toMatchObject({ status: 'completed', text: 'second attempt worked' });
    expect(w.fake.requests.slice(from)).toHaveLength(2);
    const calls = await claudeActivities(handle);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.started?.attempt).toBe(2);
    expect(calls[0]!.started?.lastFailure?.applicationFailureInfo?.type).toBe('claude.invalid_request_error');
  });
});
