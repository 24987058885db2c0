/**
 * Issue 5: a long scripted session — 1,000 model calls and 2,000 tool calls over 100 user turns,
 * a transcript over 3 MB — completes with no history or payload error; the workflow continued as
 * new on the way; every turn, including those sent while it did, got its answer; and the final
 * messages array is exactly the expected one.
 */
import { randomUUID } from 'node:crypto';
import { sendMessage } from '../../src/client/commands';
import { conversationOptions } from '../../src/client/conversation-options';
import type { ScriptStep } from '../../src/testing';
import type { MessageParam } from '../../src/conversation/types';
import { conversationWorkflow } from '../../src/workflows';
import { messagesQuery, statusQuery, userMessageSignal } from '../../src/workflows/definitions';
import { labBlob } from '../fixtures/lab-blob';
import { tsServer } from '../support/repo';
import { startTestWorker, type TestWorker } from '../support/test-worker';

const TURNS = Number(process.env.LONG_TURNS ?? 100);
const TOOL_ROUNDS = 9; // model calls per turn that ask for tools: three tools in the first two, then two
const BLOB = 1700; // characters per tool result

const toolUses = (turn: number, round: number) =>
  (round <= 2 ? ['a', 'b', 'c'] : ['a', 'b']).map((k) => ({ type: 'tool_use' as const, id: `toolu_${turn}_${round}_${k}`, name: 'blob', input: { seed: `${turn}-${round}-${k}`, size: BLOB } }));

/** The messages one turn adds, exactly. */
function expectedTurn(turn: number): MessageParam[] {
  const messages: MessageParam[] = [{ role: 'user', content: `turn ${turn}` }];
  for (let round = 1; round <= TOOL_ROUNDS; round++) {
    const uses = toolUses(turn, round);
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `round ${round}` }, ...uses] });
    messages.push({
      role: 'user',
      content: uses.map((use) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: labBlob(use.input.seed, BLOB) })),
    });
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${turn}` }] });
  return messages;
}

/** The scripted model: decides from the request which turn and round it is in. */
const model: ScriptStep = {
  kind: 'respond',
  respond: (request) => {
    const messages = (request.body as { messages: MessageParam[] }).messages;
    // A turn starts at a user message with text (prompt caching turns its string into a text block).
    const userText = (m: MessageParam | undefined): string | undefined =>
      m?.role !== 'user' ? undefined : typeof m.content === 'string' ? m.content : m.content.find((b) => b.type === 'text')?.text;
    let round = 1;
    let index = messages.length - 1;
    while (index >= 0 && userText(messages[index]) === undefined) {
      index -= 1;
      if (messages[index]?.role === 'assistant') round += 1;
    }
    const turn = Number(String(userText(messages[index])).replace('turn ', ''));
    return round <= TOOL_ROUNDS
      ? { kind: 'message', content: [{ type: 'text', text: `round ${round}` }, ...toolUses(turn, round)], stop_reason: 'tool_use' }
      : { kind: 'message', content: [{ type: 'text', text: `answer ${turn}` }], stop_reason: 'end_turn' };
  },
};

describe('long session', () => {
  let w: TestWorker;
  beforeAll(async () => {
    w = await startTestWorker({ servers: [tsServer('lab', 'test/fixtures/lab-server.ts')] });
  });
  afterAll(async () => {
    await w?.stop();
  });

  test('1,000 model calls, 2,000 tool calls, >3 MB, continue-as-new, exact transcript', async () => {
    w.fake.enqueue(...Array.from({ length: TURNS * (TOOL_ROUNDS + 1) }, () => model));
    const workflowId = `long-${randomUUID()}`;
    const handle = await w.client.workflow.start(conversationWorkflow, {
      taskQueue: w.taskQueue,
      workflowId,
      args: [{ options: conversationOptions({ maxIterations: TOOL_ROUNDS + 1, continueAsNewAfterEvents: Number(process.env.LONG_CAN_EVENTS ?? 3000) }) }],
    });
    const firstRunId = handle.firstExecutionRunId;
    // Turns by signal and by update, interleaved while the workflow runs and continues as new.
    const answers: Array<Promise<unknown>> = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      if (turn % 10 === 0) {
        // As mcp-host send and ConversationClient.send do: the update is sent again, with the same
        // id, when the server lost it before the workflow accepted it (src/client/turn-send-retry.ts;
        // seen in CI as `update "…" not found` on a loaded machine); the turn still runs once.
        answers.push(
          sendMessage(w.client, workflowId, `turn ${turn}`).then((result) => expect(result).toMatchObject({ status: 'completed', text: `answer ${turn}` })),
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
      } else {
        await w.client.workflow.getHandle(workflowId).signal(userMessageSignal, `turn ${turn}`);
      }
    }
    await Promise.all(answers);
    const latest = w.client.workflow.getHandle(workflowId);
    for (;;) {
      const status = await latest.query(statusQuery);
      if (status.turnsCompleted === TURNS && status.pendingTurns === 0 && status.currentTurn === null) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const status = await latest.query(statusQuery);
    expect(status).toMatchObject({ modelCalls: TURNS * 10, toolCalls: TURNS * 20, toolErrors: 0, hostToolErrors: 0 });

    const messages = await latest.query(messagesQuery);
    const order = messages.filter((m) => typeof m.content === 'string').map((m) => Number((m.content as string).replace('turn ', '')));
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: TURNS }, (_, i) => i + 1));
    expect(messages).toEqual(order.flatMap(expectedTurn));
    // LONG_TURNS (a quicker local run) scales the size; the default 100 turns is over 3 MB.
    expect(JSON.stringify(messages).length).toBeGreaterThan(TURNS === 100 ? 3 * 1024 * 1024 : TURNS * 20 * BLOB);

    const description = await latest.describe();
    expect(description.runId).not.toBe(firstRunId); // it continued as new
    // No retries, no rejected request. The fake keeps only the newest 128 MiB of bodies (~400 KB
    // each here), so the oldest are counted as dropped rather than kept.
    expect(w.fake.requests.length + w.fake.droppedRequests()).toBe(TURNS * (TOOL_ROUNDS + 1));
    expect(w.fake.pending()).toBe(0);
  }, 15 * 60_000);
});
