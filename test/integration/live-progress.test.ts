/**
 * Live progress (issue 10): a turn's tool calls and its answer as Claude writes it reach a
 * follower while the turn runs, a follower that joins late still gets the whole answer, and none
 * of it enters the history: a turn streamed with the answer in its heartbeats records the same
 * history as one without (same events, the same bytes but for timestamps, the answer's text as
 * often). Real dev server, the real Anthropic SDK against the wire-level fake (streaming, held
 * back mid-answer by the test), a real MCP server process whose tool takes two seconds.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { createActivities } from '../../src/activities';
import { createCallClaude } from '../../src/activities/call-claude';
import { TranscriptReader } from '../../src/activities/transcript-reader';
import { createClaudeClient } from '../../src/claude/create-claude-client';
import { ConversationClient } from '../../src/client/conversation-client';
import type { ConversationEvent } from '../../src/client/conversation-events';
import { McpConnections } from '../../src/mcp/mcp-connections';
import { dataConverter } from '../../src/temporal/data-converter';
import type { ScriptStep } from '../../src/testing';
import { scenarioServer } from '../fixtures/reference-servers';
import { startTestWorker, temporalAddress, TEST_API_KEY, type TestWorker } from '../support/test-worker';
import { workerTracingOptions } from '../../src/telemetry/worker-tracing';

/** The answer, long enough to stream for a while (about 3,000 characters) and easy to find in a history. */
const ANSWER = Array.from({ length: 60 }, (_, i) => `STREAMED-LINE-${String(i).padStart(2, '0')} the weather holds, 25°C and sunny.`).join('\n');
const CHUNK = 40;

function toolStep(): ScriptStep {
  return {
    kind: 'message',
    content: [
      { type: 'text', text: 'Let me run the slow tool.' },
      { type: 'tool_use', name: 'progress', input: { steps: 4, ms: 500 } },
    ],
    stop_reason: 'tool_use',
  };
}

function answerStep(stream: { eventGapMs?: number; holdAfter?: { events: number; until: Promise<unknown> } }): ScriptStep {
  return { kind: 'message', content: [{ type: 'text', text: ANSWER }], stop_reason: 'end_turn', stream: { chunkChars: CHUNK, ...stream } };
}

const hello: ScriptStep = { kind: 'message', content: [{ type: 'text', text: 'hello' }], stop_reason: 'end_turn' };

/** The text a follower saw of the answers, per Claude call. */
function textsOf(events: readonly ConversationEvent[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const event of events) {
    if (event.type !== 'claude_text') continue;
    texts.set(event.callId, (event.restart === true ? '' : (texts.get(event.callId) ?? '')) + event.text);
  }
  return texts;
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function historyOf(client: Client, workflowId: string): Promise<temporal.api.history.v1.IHistoryEvent[]> {
  return (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}

describe('live progress', () => {
  let w: TestWorker;
  let conversations: ConversationClient;

  beforeAll(async () => {
    w = await startTestWorker({ servers: [scenarioServer('lab', { SCENARIO_TOOLS: 'progress' })] });
    conversations = new ConversationClient(w.client, { taskQueue: w.taskQueue });
  });
  afterAll(async () => {
    await w?.stop();
  });

  test('tool progress and the first part of the answer reach the sender before the answer is written; a late follower gets it all', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Held after about a third of the answer: what the sender sees by then was streamed.
    const heldAfterEvents = 3 + Math.floor(ANSWER.length / CHUNK / 3);
    w.fake.enqueue(hello, toolStep(), answerStep({ eventGapMs: 5, holdAfter: { events: heldAfterEvents, until: held } }));
    const id = `live-${randomUUID()}`;
    await conversations.start('hi', { id, wait: true });

    const seen: ConversationEvent[] = [];
    const sending = conversations.send(id, 'the weather, slowly', { onProgress: (event) => seen.push(event) });
    let settled = false;
    void sending.finally(() => (settled = true)).catch(() => undefined);

    // While the fake holds the answer's rest: the tool's start and end (two seconds), then text.
    const started = (): boolean => seen.some((e) => e.type === 'tool_started');
    await until(started, 'the tool start');
    const toolStart = seen.find((e) => e.type === 'tool_started');
    expect(toolStart).toMatchObject({ tool: 'progress', server: 'lab', arguments: { steps: 4, ms: 500 } });
    await until(() => seen.some((e) => e.type === 'tool_finished'), 'the tool end');
    const toolEnd = seen.find((e) => e.type === 'tool_finished');
    expect(toolEnd).toMatchObject({ tool: 'progress', server: 'lab' });
    expect(toolEnd?.type === 'tool_finished' && toolEnd.error).toBeFalsy();
    expect(toolEnd?.type === 'tool_finished' ? toolEnd.durationMs : 0).toBeGreaterThanOrEqual(1900);

    const firstLine = ANSWER.split('\n')[0]!;
    await until(() => [...textsOf(seen).values()].some((text) => text.includes(firstLine)), 'the answer\'s first line, streamed');
    expect(settled).toBe(false);
    const shownWhileHeld = Math.max(...[...textsOf(seen).values()].map((text) => (ANSWER.startsWith(text) ? text.length : 0)));
    expect(shownWhileHeld).toBeGreaterThan(0);
    expect(shownWhileHeld).toBeLessThan(ANSWER.length);

    // A second client joins now, with the answer half written: it gets what was written so far.
    const other = await Connection.connect({ address: temporalAddress() });
    const late = new ConversationClient(new Client({ connection: other, dataConverter }), { taskQueue: w.taskQueue });
    const lateSeen: ConversationEvent[] = [];
    const follower = late.follow(id, (event) => lateSeen.push(event));
    try {
      await until(() => [...textsOf(lateSeen).values()].some((text) => text.includes(firstLine)), 'the late follower\'s text');
      release();
      const result = await sending;
      expect(result).toMatchObject({ status: 'completed', text: ANSWER, toolCalls: 1 });
      // Every character of the answer reached the sender, once, in order.
      expect([...textsOf(seen).values()]).toContain(ANSWER);
      // The late follower: the whole answer as text, and the turn's result.
      await until(() => lateSeen.some((e) => e.type === 'turn_finished'), 'the late follower\'s turn end');
      expect([...textsOf(lateSeen).values()]).toContain(ANSWER);
      const finished = lateSeen.find((e) => e.type === 'turn_finished');
      expect(finished?.type === 'turn_finished' ? finished.result?.text : undefined).toBe(ANSWER);
    } finally {
      release();
      await follower.stop();
      await other.close();
    }
    // A client that comes back after the turn: the answer is the conversation's last turn.
    expect((await conversations.status(id)).lastTurn?.text).toBe(ANSWER);
  }, 90_000);

  test('the streamed answer never enters the history: same events and bytes as a turn whose heartbeats carry nothing', async () => {
    // A second worker whose Claude calls publish nothing, on its own task queue.
    const nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
    const mcp = new McpConnections([scenarioServer('lab', { SCENARIO_TOOLS: 'progress' })], () => undefined);
    const claude = createClaudeClient({ apiKey: TEST_API_KEY, baseURL: w.fake.url });
    const quietQueue = `quiet-${randomUUID()}`;
    const streamingQueue = `strm-${randomUUID()}`.padEnd(quietQueue.length, 'x');
    const quietWorker = await Worker.create({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue: quietQueue,
      dataConverter,
      // The workflow bundle's span sink (src/telemetry/worker-tracing.ts): dropped, tracing is off here.
      sinks: workerTracingOptions().sinks,
      // As src/worker/create-worker.ts sets it.
      maxHeartbeatThrottleInterval: '150 milliseconds',
      ...(process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE ? { workflowBundle: { codePath: process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE } } : { workflowsPath: require.resolve('../../src/workflows') }),
      activities: {
        ...createActivities({ claude, temporal: w.client, mcp }),
        callClaude: createCallClaude({ claude, transcripts: new TranscriptReader(w.client), publishProgress: false }),
      },
    });
    const streamingWorker = await Worker.create({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue: streamingQueue,
      dataConverter,
      // The workflow bundle's span sink (src/telemetry/worker-tracing.ts): dropped, tracing is off here.
      sinks: workerTracingOptions().sinks,
      // As src/worker/create-worker.ts sets it.
      maxHeartbeatThrottleInterval: '150 milliseconds',
      ...(process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE ? { workflowBundle: { codePath: process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE } } : { workflowsPath: require.resolve('../../src/workflows') }),
      activities: createActivities({ claude, temporal: w.client, mcp }),
    });
    const runs = [quietWorker.run(), streamingWorker.run()];
    try {
      const turn = async (taskQueue: string, id: string): Promise<{ events: number; bytes: number; answers: number; texts: number }> => {
        const client = new ConversationClient(w.client, { taskQueue });
        w.fake.enqueue(hello, toolStep(), answerStep({ eventGapMs: 25 }));
        await client.start('hi', { id, wait: true, messageId: 'm-1' });
        const seen: ConversationEvent[] = [];
        const result = await client.send(id, 'the weather, slowly', { messageId: 'm-2', onProgress: (event) => seen.push(event) });
        expect(result.text).toBe(ANSWER);
        const events = await historyOf(w.client, id);
        const encoded = Buffer.from(temporal.api.history.v1.History.encode({ events }).finish());
        const answerCall = [...textsOf(seen).entries()].find(([, text]) => text === ANSWER)?.[0];
        return {
          events: events.length,
          bytes: encoded.length,
          // Payloads under 64 KB are plain JSON in the history: the answer's text can be counted there.
          answers: encoded.toString('latin1').split('STREAMED-LINE-30').length - 1,
          // Pieces in which the follower got the answer: while it streamed (heartbeats), and its rest at the end.
          texts: seen.filter((e) => e.type === 'claude_text' && e.callId === answerCall).length,
        };
      };
      // Same-length ids, task queues and message ids: the histories differ only where timestamps do.
      const quiet = await turn(quietQueue, `hist-q-${randomUUID()}`);
      const streamed = await turn(streamingQueue, `hist-s-${randomUUID()}`);
      console.log(`history of one streamed turn: ${JSON.stringify({ streamed, quiet })}`);
      expect(streamed.texts).toBeGreaterThan(2); // the answer went out in pieces while it streamed
      expect(quiet.texts).toBe(1); // nothing but the end, read from the history
      expect(quiet.answers).toBeGreaterThan(0);
      expect(streamed.events).toBe(quiet.events);
      expect(streamed.answers).toBe(quiet.answers);
      expect(Math.abs(streamed.bytes - quiet.bytes)).toBeLessThan(64);
    } finally {
      quietWorker.shutdown();
      streamingWorker.shutdown();
      await Promise.all(runs);
      await mcp.closeAll();
      await nativeConnection.close();
    }
  }, 120_000);
});
