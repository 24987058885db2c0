import { defaultPayloadConverter } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { streamDetails } from '../../src/activities/claude-stream-details';
import type { ConversationEvent } from '../../src/client/conversation-events';
import { StreamProgress } from '../../src/client/stream-progress';

const client = { options: { loadedDataConverter: { payloadCodecs: [], payloadConverter: defaultPayloadConverter } } } as unknown as Client;

function claudeCall(text: string, attempt = 1, window = 4096): object {
  return {
    activityId: '7',
    activityType: { name: 'callClaude' },
    attempt,
    heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload(streamDetails(text, attempt, window))] },
  };
}

const texts = (events: ConversationEvent[]): string[] => events.flatMap((e) => (e.type === 'claude_text' ? [e.text] : []));

describe('StreamProgress', () => {
  test('each piece of the answer once, in order, and the rest from the final text', async () => {
    const stream = new StreamProgress(client);
    expect(texts(await stream.take('r', [claudeCall('Hello')], () => undefined))).toEqual(['Hello']);
    expect(await stream.take('r', [claudeCall('Hello')], () => undefined)).toEqual([]);
    expect(texts(await stream.take('r', [claudeCall('Hello, wor')], () => undefined))).toEqual([', wor']);
    expect(stream.finish('r/7', 'Hello, world')).toEqual({ type: 'claude_text', callId: 'r/7', attempt: 1, text: 'ld' });
    // A describe answer read before the end and handled after it shows nothing more.
    expect(await stream.take('r', [claudeCall('Hello, world')], () => undefined)).toEqual([]);
  });

  test('a follower that fell behind the window is told how much it missed', async () => {
    const stream = new StreamProgress(client);
    await stream.take('r', [claudeCall('ab', 1, 4)], () => undefined);
    const [event] = await stream.take('r', [claudeCall('abcdefghij', 1, 4)], () => undefined);
    expect(event).toMatchObject({ type: 'claude_text', text: 'ghij', skipped: 4 });
    // Positions still count: the rest of the final text follows.
    expect(stream.finish('r/7', 'abcdefghijkl')).toMatchObject({ text: 'kl' });
  });

  test('a retried attempt starts over; the details of the earlier attempt are not taken for it', async () => {
    const stream = new StreamProgress(client);
    await stream.take('r', [claudeCall('first try')], () => undefined);
    // Attempt 2 runs, its details not sent yet: the server still holds attempt 1's.
    const stale = { ...claudeCall('first try'), attempt: 2 };
    expect(await stream.take('r', [stale], () => undefined)).toEqual([]);
    const [again] = await stream.take('r', [claudeCall('second', 2)], () => undefined);
    expect(again).toMatchObject({ text: 'second', restart: true, attempt: 2 });
    // A final text that does not continue what was shown is shown whole, as a restart.
    expect(stream.finish('r/7', 'other answer')).toMatchObject({ text: 'other answer', restart: true });
  });

  test('a tool call tried again shows its attempt and last failure once', async () => {
    const stream = new StreamProgress(client);
    const tool = { activityId: '9', activityType: { name: 'callTool' }, attempt: 2, lastFailure: { message: 'server unreachable' } };
    expect(await stream.take('r', [tool], () => 'get_weather')).toEqual([
      { type: 'tool_retrying', callId: 'r/9', tool: 'get_weather', attempt: 2, lastFailure: 'server unreachable' },
    ]);
    expect(await stream.take('r', [tool], () => 'get_weather')).toEqual([]);
  });

  test("a tool call's progress notifications and task status show when they change", async () => {
    const stream = new StreamProgress(client);
    const tool = (details: object) => ({ activityId: '5', activityType: { name: 'callTool' }, attempt: 1, heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload(details)] } });
    expect(await stream.take('r', [tool({ toolFailures: 0 })], () => 'long_op')).toEqual([]);
    expect(await stream.take('r', [tool({ toolFailures: 0, progress: { progressToken: 1, progress: 2, total: 4, message: 'step 2' } })], () => 'long_op')).toEqual([
      { type: 'tool_progress', callId: 'r/5', tool: 'long_op', progress: 2, total: 4, message: 'step 2' },
    ]);
    expect(await stream.take('r', [tool({ toolFailures: 0, progress: { progressToken: 1, progress: 2, total: 4, message: 'step 2' } })], () => 'long_op')).toEqual([]);
    expect(await stream.take('r', [tool({ toolFailures: 0, taskId: 't1', taskStatus: { status: 'working', message: 'Analyzing' } })], () => 'long_op')).toEqual([
      { type: 'tool_progress', callId: 'r/5', tool: 'long_op', task: { status: 'working', message: 'Analyzing' } },
    ]);
  });
});

describe('StreamProgress and thinking (issue 29)', () => {
  function thinkingCall(thinking: string, text: string, attempt = 1): object {
    return {
      activityId: '8',
      activityType: { name: 'callClaude' },
      attempt,
      heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload(streamDetails(text, attempt, 4096, thinking))] },
    };
  }
  const thoughts = (events: ConversationEvent[]): string[] => events.flatMap((e) => (e.type === 'claude_thinking' ? [e.text] : []));

  test('thinking and answer each once, thinking first; the rest of each from the result; never the thinking as answer', async () => {
    const stream = new StreamProgress(client);
    const first = await stream.take('r', [thinkingCall('Let me', '')], () => undefined);
    expect(first).toEqual([{ type: 'claude_thinking', callId: 'r/8', attempt: 1, text: 'Let me' }]);
    const second = await stream.take('r', [thinkingCall('Let me think.', 'Sun')], () => undefined);
    expect(second.map((e) => e.type)).toEqual(['claude_thinking', 'claude_text']);
    expect(thoughts(second)).toEqual([' think.']);
    expect(texts(second)).toEqual(['Sun']);
    expect(stream.finishThinking('r/8', 'Let me think. Done.')).toEqual({ type: 'claude_thinking', callId: 'r/8', attempt: 1, text: ' Done.' });
    expect(stream.finish('r/8', 'Sunny.')).toEqual({ type: 'claude_text', callId: 'r/8', attempt: 1, text: 'ny.' });
    expect(await stream.take('r', [thinkingCall('Let me think. Done.', 'Sunny.')], () => undefined)).toEqual([]);
    expect(stream.finishThinking('r/8', 'Let me think. Done.')).toBeUndefined();
  });

  test('a call whose heartbeats came too late for the stream shows its thinking from the result', () => {
    const stream = new StreamProgress(client);
    expect(stream.finishThinking('r/9', 'All at once.')).toEqual({ type: 'claude_thinking', callId: 'r/9', attempt: 1, text: 'All at once.' });
    expect(stream.finish('r/9', 'ok')).toMatchObject({ text: 'ok' });
  });
});

describe('StreamProgress and the live channel (issue 32)', () => {
  const live = (offset: number, delta: string, attempt = 1, kind: 'text' | 'thinking' = 'text') => ({ runId: 'r', activityId: '7', attempt, kind, offset, delta });

  test('pieces from the broker and windows from the heartbeats merge by offset: each character once, whichever comes first', async () => {
    const stream = new StreamProgress(client);
    expect(stream.takeLive(live(0, 'Hel'))).toEqual({ type: 'claude_text', callId: 'r/7', attempt: 1, text: 'Hel' });
    // The heartbeat's window has more than the broker gave so far: only the new part.
    expect(texts(await stream.take('r', [claudeCall('Hello, w')], () => undefined))).toEqual(['lo, w']);
    // The broker's pieces the heartbeat already showed: nothing, or what is new of them.
    expect(stream.takeLive(live(3, 'lo'))).toBeUndefined();
    expect(stream.takeLive(live(5, ', wor'))).toMatchObject({ text: 'or' });
    // A piece from the start (the worker noticed the follower late) shows only what is new.
    expect(stream.takeLive(live(0, 'Hello, world'))).toMatchObject({ text: 'ld' });
    expect(stream.finish('r/7', 'Hello, world!')).toMatchObject({ text: '!' });
    // Nothing of the call after its end.
    expect(stream.takeLive(live(13, ' late'))).toBeUndefined();
  });

  test('a new attempt shows as a restart; a late piece of the earlier attempt is dropped', async () => {
    const stream = new StreamProgress(client);
    stream.takeLive(live(0, 'first try'));
    expect(stream.takeLive(live(0, 'sec', 2))).toEqual({ type: 'claude_text', callId: 'r/7', attempt: 2, text: 'sec', restart: true });
    expect(stream.takeLive(live(9, ' more', 1))).toBeUndefined();
    expect(texts(await stream.take('r', [claudeCall('first try more', 1)], () => undefined))).toEqual([]);
    expect(stream.takeLive(live(3, 'ond', 2))).toMatchObject({ text: 'ond' });
    expect(stream.finish('r/7', 'second')).toBeUndefined();
  });

  test('thinking pieces are thinking events, apart from the answer', () => {
    const stream = new StreamProgress(client);
    expect(stream.takeLive(live(0, 'Let me think', 1, 'thinking'))).toEqual({ type: 'claude_thinking', callId: 'r/7', attempt: 1, text: 'Let me think' });
    expect(stream.takeLive(live(0, 'Answer'))).toEqual({ type: 'claude_text', callId: 'r/7', attempt: 1, text: 'Answer' });
  });
});
