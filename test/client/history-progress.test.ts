import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HistoryProgress } from '../../src/client/history-progress';
import type { ConversationEvent } from '../../src/client/conversation-events';
import { historyFromJson } from '../support/history-json';

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

describe('HistoryProgress: a fast tool call (a local-activity marker)', () => {
  const reply = (uses: Array<{ id: string; input: object }>): object => ({
    id: 'msg_1',
    model: 'm',
    content: uses.map((u) => ({ type: 'tool_use', id: u.id, name: 'x', input: u.input })),
    stopReason: 'tool_use',
    stopSequence: null,
    usage: {},
  });
  const marker = (eventId: number, summary: string, details: { result?: unknown; failure?: object }, activityType = 'callTool'): Event =>
    ev({
      eventId,
      eventTime: at(210),
      userMetadata: { summary: defaultPayloadConverter.toPayload(summary) },
      markerRecordedEventAttributes: {
        markerName: 'core_local_activity',
        details: {
          data: payloads({ seq: 3, attempt: 1, activity_id: '3', activity_type: activityType, complete_time: at(205), backoff: null, original_schedule_time: at(203) }),
          ...(details.result !== undefined ? { result: payloads(details.result) } : {}),
        },
        ...(details.failure !== undefined ? { failure: details.failure } : {}),
      },
    });

  test('shows its start and end at once, named from its summary and the reply it answers; is_error and failures as errors', async () => {
    const progress = new HistoryProgress(client, 'run1');
    await progress.take(scheduled(9, 'callClaude', {}, 200));
    await progress.take(ev({ eventId: 11, eventTime: at(201), activityTaskCompletedEventAttributes: { scheduledEventId: 9, result: payloads(reply([{ id: 'toolu_a', input: { a: 1, b: 2 } }, { id: 'toolu_b', input: { text: 'x' } }])) } }));
    expect(await progress.take(marker(14, 'add {"a":1,"b":2} · lab', { result: { content: '3', isError: false, truncatedChars: 0 } }))).toEqual([
      { type: 'tool_started', callId: 'run1/14', toolUseId: 'toolu_a', server: 'lab', tool: 'add', arguments: { a: 1, b: 2 }, at: new Date(203_000) },
      { type: 'tool_finished', callId: 'run1/14', toolUseId: 'toolu_a', server: 'lab', tool: 'add', durationMs: 2000 },
    ]);
    expect(await progress.take(marker(15, 'echo {"text":"x"} · lab', { result: { content: [{ type: 'text', text: 'no' }], isError: true, truncatedChars: 0 } }))).toMatchObject([
      { type: 'tool_started', toolUseId: 'toolu_b', tool: 'echo' },
      { type: 'tool_finished', toolUseId: 'toolu_b', tool: 'echo', error: 'no' },
    ]);
    expect(await progress.take(marker(16, 'flaky {"n":1… · srv', { failure: { message: 'server error; tried 3 times' } }))).toEqual([
      { type: 'tool_started', callId: 'run1/16', toolUseId: '', server: 'srv', tool: 'flaky', at: new Date(203_000) },
      { type: 'tool_finished', callId: 'run1/16', toolUseId: '', server: 'srv', tool: 'flaky', durationMs: 2000, error: 'server error; tried 3 times' },
    ]);
  });

  test('other markers, and markers before the follower joined, show nothing', async () => {
    const progress = new HistoryProgress(client, 'run1');
    expect(await progress.take(marker(14, 'add {} · lab', { result: {} }), false)).toEqual([]);
    expect(await progress.take(marker(15, 'x', { result: {} }, 'somethingElse'))).toEqual([]);
    expect(await progress.take(ev({ eventId: 16, markerRecordedEventAttributes: { markerName: 'core_patch', details: {} } }))).toEqual([]);
    expect(progress.running()).toEqual([]);
  });

  test('a recorded history (test/histories/fast-tool.json): the fast call and the regular one both show, with their tool_use ids', async () => {
    const history = historyFromJson(fs.readFileSync(path.join(__dirname, '..', 'histories', 'fast-tool.json'), 'utf8'));
    const progress = new HistoryProgress(client, 'run1');
    const shown: ConversationEvent[] = [];
    for (const event of history.events ?? []) shown.push(...(await progress.take(event)));
    const tools = shown.flatMap((e) => (e.type === 'tool_started' || e.type === 'tool_finished' ? [[e.type, e.toolUseId, e.tool, e.server, 'error' in e ? e.error : undefined]] : []));
    expect(tools).toEqual([
      ['tool_started', 'toolu_fast_echo', 'slow_echo', 'lab', undefined],
      ['tool_started', 'toolu_fast_add', 'add', 'lab', undefined],
      ['tool_finished', 'toolu_fast_add', 'add', 'lab', undefined],
      ['tool_finished', 'toolu_fast_echo', 'slow_echo', 'lab', undefined],
    ]);
  });
});
