import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { HistoryProgress } from '../../src/client/history-progress';

const client = { options: { loadedDataConverter: { payloadCodecs: [], payloadConverter: defaultPayloadConverter } } } as unknown as Client;
const payloads = (value: unknown): { payloads: temporal.api.common.v1.IPayload[] } => ({ payloads: [defaultPayloadConverter.toPayload(value)] });
const at = (seconds: number): { seconds: number; nanos: number } => ({ seconds, nanos: 0 });

type Event = temporal.api.history.v1.IHistoryEvent;
/** An event as the test writes it (numbers where the proto types say Long, which the code reads with Number()). */
const ev = (event: object): Event => event;
const scheduled = (eventId: number, name: string, input: unknown, time: number): Event =>
  ev({ eventId, eventTime: at(time), activityTaskScheduledEventAttributes: { activityId: String(eventId), activityType: { name }, input: payloads(input) } });

describe('HistoryProgress', () => {
  test('a tool call from its scheduling to its is_error result, a Claude call with its text, an awaited turn', async () => {
    const progress = new HistoryProgress(client, 'run1');
    const tool = { server: 'weather', tool: 'get_weather', arguments: { city: '北京' }, toolUseId: 'toolu_1' };
    expect(await progress.take(scheduled(5, 'callTool', tool, 100))).toEqual([
      { type: 'tool_started', callId: 'run1/5', toolUseId: 'toolu_1', server: 'weather', tool: 'get_weather', arguments: { city: '北京' }, at: new Date(100_000) },
    ]);
    const output = { content: [{ type: 'text', text: 'no such city' }], isError: true, truncatedChars: 0 };
    expect(await progress.take(ev({ eventId: 7, eventTime: at(102), activityTaskCompletedEventAttributes: { scheduledEventId: 5, result: payloads(output) } }))).toEqual([
      { type: 'tool_finished', callId: 'run1/5', toolUseId: 'toolu_1', server: 'weather', tool: 'get_weather', durationMs: 2000, error: 'no such city' },
    ]);

    await progress.take(scheduled(9, 'callClaude', {}, 103));
    const reply = { id: 'msg_1', model: 'm', content: [{ type: 'text', text: '北京' }, { type: 'text', text: '今天晴' }], stopReason: 'end_turn', stopSequence: null, usage: {} };
    expect(await progress.take(ev({ eventId: 11, eventTime: at(104), activityTaskCompletedEventAttributes: { scheduledEventId: 9, result: payloads(reply) } }))).toEqual([
      { type: 'claude_finished', callId: 'run1/9', durationMs: 1000, stopReason: 'end_turn', text: '北京今天晴' },
    ]);

    await progress.take(ev({ eventId: 3, workflowExecutionUpdateAcceptedEventAttributes: { protocolInstanceId: 'm-1', acceptedRequest: { meta: { updateId: 'm-1' }, input: { name: 'sendMessage' } } } }));
    await progress.take(ev({ eventId: 4, workflowExecutionUpdateAcceptedEventAttributes: { protocolInstanceId: 'c-1', acceptedRequest: { meta: { updateId: 'c-1' }, input: { name: 'setContextStrategy' } } } }));
    const turn = { turnId: 1, status: 'completed', text: '北京今天晴', stopReason: 'end_turn', modelCalls: 2, toolCalls: 1 };
    expect(await progress.take(ev({ eventId: 13, workflowExecutionUpdateCompletedEventAttributes: { meta: { updateId: 'c-1' }, outcome: { success: payloads('last_turns:2') } } }))).toEqual([]);
    expect(await progress.take(ev({ eventId: 14, workflowExecutionUpdateCompletedEventAttributes: { meta: { updateId: 'm-1' }, outcome: { success: payloads(turn) } } }))).toEqual([
      { type: 'turn_finished', messageId: 'm-1', result: turn },
    ]);
  });

  test('the history before the follower joined builds the state only: the calls still running are known', async () => {
    const progress = new HistoryProgress(client, 'run1');
    const tool = (id: string): object => ({ server: 'lab', tool: 'slow', arguments: {}, toolUseId: id });
    await progress.take(scheduled(5, 'callTool', tool('a'), 1), false);
    await progress.take(scheduled(6, 'callTool', tool('b'), 1), false);
    expect(await progress.take(ev({ eventId: 8, activityTaskFailedEventAttributes: { scheduledEventId: 5, failure: { message: 'boom' } } }), false)).toEqual([]);
    expect(progress.running()).toMatchObject([{ type: 'tool_started', toolUseId: 'b' }]);
    expect(await progress.take(ev({ eventId: 9, activityTaskFailedEventAttributes: { scheduledEventId: 6, failure: { message: 'refused' } } }))).toMatchObject([
      { type: 'tool_finished', toolUseId: 'b', error: 'refused' },
    ]);
  });
});
