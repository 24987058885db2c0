/**
 * Every stop reason, and the per-turn loop limit, on the real dev server with the real Anthropic SDK
 * against the wire-level fake (S17: `stop_reason` is the only authority; every other stop reason gets
 * explicit handling). After each odd ending the NEXT turn must still work: the fake validates every
 * request like the real API, so a history left with an unanswered `tool_use` would fail it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ScriptStep } from '../../src/testing';
import type { TurnStatus } from '../../src/conversation/types';
import { messagesQuery, sendMessageUpdate, statusQuery } from '../../src/workflows/definitions';
import { blocksOf, messagesOf, startConversation, validationErrors } from '../support/loop-helpers';
import { tsServer } from '../support/repo';
import { startTestWorker, type TestWorker } from '../support/test-worker';

const ok = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

describe('stop reasons and the loop limit', () => {
  let w: TestWorker;
  let dir: string;
  let labLog: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'loop-stop-'));
    labLog = path.join(dir, 'lab.log');
    w = await startTestWorker({ servers: [tsServer('lab', 'test/fixtures/lab-server.ts', { LAB_LOG: labLog })] });
  });
  afterAll(async () => {
    await w?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    // Steps left by a failed test would answer this test's requests: fail clearly instead.
    expect(w.fake.pending()).toBe(0);
  });

  function labLogText(): string {
    try {
      return readFileSync(labLog, 'utf8');
    } catch {
      return '';
    }
  }

  test('a model that asks for tools forever stops at maxIterations; every tool_use stays answered; the next turn works', async () => {
    const from = w.fake.requests.length;
    let asked = 0;
    // Always two more tool calls, whatever came back.
    const forever: ScriptStep = {
      kind: 'respond',
      respond: () => {
        asked += 1;
        return {
          kind: 'message',
          content: [
            { type: 'text', text: `round ${asked}` },
            { type: 'tool_use', name: 'add', input: { a: asked, b: 1 } },
            { type: 'tool_use', name: 'add', input: { a: asked, b: 2 } },
          ],
          stop_reason: 'tool_use',
        };
      },
    };
    // Were the limit not enforced, the 4th call would take the next turn's answer and end `completed`.
    w.fake.enqueue(forever, forever, forever, ok('after the limit'));
    const handle = await startConversation(w, { maxIterations: 3 });
    const limited = await handle.executeUpdate(sendMessageUpdate, { args: ['loop please'] });
    expect(limited).toMatchObject({ status: 'iteration_limit', stopReason: 'tool_use', modelCalls: 3, text: 'round 3' });
    // Tools actually run: two rounds of two; the third round's were not run.
    expect(limited.toolCalls).toBe(4);
    expect(limited.error).toContain('3 model calls');
    expect(w.fake.requests.slice(from)).toHaveLength(3);

    const messages = await handle.query(messagesQuery);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: expect.stringMatching(/^toolu_/), content: '2' },
        { type: 'tool_result', tool_use_id: expect.stringMatching(/^toolu_/), content: '3' },
      ],
    });
    const lastCalls = blocksOf(messages[5]).flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    expect(lastCalls).toHaveLength(2);
    const notRun = "[host] Not run: this turn reached the host's limit of 3 model calls.";
    expect(messages[6]).toEqual({
      role: 'user',
      content: lastCalls.map((id) => ({ type: 'tool_result', tool_use_id: id, content: notRun, is_error: true })),
    });
    expect(await handle.query(statusQuery)).toMatchObject({ modelCalls: 3, toolCalls: 4, toolErrors: 0, hostToolErrors: 0 });

    const next = await handle.executeUpdate(sendMessageUpdate, { args: ['stop now'] });
    expect(next).toMatchObject({ status: 'completed', text: 'after the limit', modelCalls: 1 });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(4);
    expect(validationErrors(requests)).toEqual([null, null, null, null]);
    // The new text joins the trailing tool results: one user message after the last assistant one.
    expect(messagesOf(requests[3]).slice(6)).toEqual([
      { role: 'user', content: [...(messages[6]!.content as unknown[]), { type: 'text', text: 'stop now' }] },
    ]);
  });

  test('max_tokens with a cut tool_use: no tool runs, no tool_use is stored, status max_tokens; the next turn works', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'text', text: 'Let me echo that' },
          { type: 'tool_use', id: 'toolu_cut01', name: 'slow_echo', input: { text: 'never-run-1', ms: 1 } },
        ],
        stop_reason: 'max_tokens',
      },
      // Nothing but a cut tool_use: the stored message must still not be empty.
      {
        kind: 'message',
        content: [{ type: 'tool_use', id: 'toolu_cut02', name: 'slow_echo', input: { text: 'never-run-2', ms: 1 } }],
        stop_reason: 'max_tokens',
      },
      ok('fine'),
    );
    const handle = await startConversation(w, { maxTokens: 16 });
    const first = await handle.executeUpdate(sendMessageUpdate, { args: ['one'] });
    expect(first).toMatchObject({ status: 'max_tokens', stopReason: 'max_tokens', text: 'Let me echo that', modelCalls: 1, toolCalls: 0 });
    const second = await handle.executeUpdate(sendMessageUpdate, { args: ['two'] });
    expect(second).toMatchObject({ status: 'max_tokens', modelCalls: 1, toolCalls: 0 });
    const third = await handle.executeUpdate(sendMessageUpdate, { args: ['three'] });
    expect(third).toMatchObject({ status: 'completed', text: 'fine' });

    expect(labLogText()).not.toContain('never-run');
    const messages = await handle.query(messagesQuery);
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Let me echo that' }] });
    expect(messages[3]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '[host: 1 unexecuted tool call(s) removed: the reply was cut at max_tokens]' }],
    });
    expect(JSON.stringify(messages)).not.toContain('tool_use');
    expect(await handle.query(statusQuery)).toMatchObject({ toolCalls: 0, modelCalls: 3, lastStopReason: 'end_turn' });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(3);
    expect(validationErrors(requests)).toEqual([null, null, null]);
    expect((requests[0]!.body as { max_tokens: number }).max_tokens).toBe(16);
  });

  test('pause_turn: the reply goes back as it is and Claude is called again without a user message', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      { kind: 'message', content: [{ type: 'text', text: 'Still working…' }], stop_reason: 'pause_turn' },
      ok('Done.'),
      ok('Next one.'),
    );
    const handle = await startConversation(w);
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['long task'] });
    expect(turn).toMatchObject({ status: 'completed', text: 'Done.', modelCalls: 2, toolCalls: 0 });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(messagesOf(requests[1])).toEqual([
      ...messagesOf(requests[0]),
      { role: 'assistant', content: [{ type: 'text', text: 'Still working…' }] },
    ]);
    // Stored as ONE assistant message: the continuation joins the paused reply (roles alternate).
    expect(await handle.query(messagesQuery)).toEqual([
      { role: 'user', content: 'long task' },
      { role: 'assistant', content: [{ type: 'text', text: 'Still working…' }, { type: 'text', text: 'Done.' }] },
    ]);

    const next = await handle.executeUpdate(sendMessageUpdate, { args: ['and then?'] });
    expect(next).toMatchObject({ status: 'completed', text: 'Next one.' });
    const all = w.fake.requests.slice(from);
    expect(validationErrors(all)).toEqual([null, null, null]);
    expect(messagesOf(all[2]).at(-1)).toEqual({ role: 'user', content: 'and then?' });
  });

  test('pause_turn counts toward the loop limit', async () => {
    const from = w.fake.requests.length;
    const pause: ScriptStep = { kind: 'message', content: [{ type: 'text', text: 'pausing' }], stop_reason: 'pause_turn' };
    w.fake.enqueue(pause, pause, ok('resumed'));
    const handle = await startConversation(w, { maxIterations: 2 });
    const limited = await handle.executeUpdate(sendMessageUpdate, { args: ['go'] });
    expect(limited).toMatchObject({ status: 'iteration_limit', stopReason: 'pause_turn', modelCalls: 2 });
    const next = await handle.executeUpdate(sendMessageUpdate, { args: ['go on'] });
    expect(next).toMatchObject({ status: 'completed', text: 'resumed' });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(3);
    expect(validationErrors(requests)).toEqual([null, null, null]);
  });

  test('stop_reason tool_use without any tool_use block ends the turn visibly instead of sending an empty user message', async () => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      { kind: 'message', content: [{ type: 'text', text: 'I will call a tool' }], stop_reason: 'tool_use' },
      ok('recovered'),
    );
    const handle = await startConversation(w);
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['first'] });
    expect(turn).toMatchObject({ status: 'unknown_stop_reason', stopReason: 'tool_use', text: 'I will call a tool', modelCalls: 1, toolCalls: 0 });
    expect(turn.error).toContain('no tool_use block');
    const next = await handle.executeUpdate(sendMessageUpdate, { args: ['second'] });
    expect(next).toMatchObject({ status: 'completed', text: 'recovered' });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
  });

  const endings: Array<{ stopReason: string; status: TurnStatus; stopSequence?: string; error?: string }> = [
    { stopReason: 'refusal', status: 'refusal', error: 'declined' },
    { stopReason: 'stop_sequence', status: 'stop_sequence', stopSequence: '###' },
    { stopReason: 'model_context_window_exceeded', status: 'context_window_exceeded', error: 'context window' },
    { stopReason: 'a_stop_reason_from_the_future', status: 'unknown_stop_reason', error: 'a_stop_reason_from_the_future' },
  ];

  test.each(endings)('$stopReason ends the turn with status $status, and the next turn works', async ({ stopReason, status, stopSequence, error }) => {
    const from = w.fake.requests.length;
    w.fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'text', text: `reply that stopped for ${stopReason}` },
          // A tool_use that did not stop the reply is never run and never stored.
          { type: 'tool_use', id: `toolu_${stopReason.slice(0, 20)}`, name: 'slow_echo', input: { text: `never-${stopReason}`, ms: 1 } },
        ],
        stop_reason: stopReason,
        ...(stopSequence !== undefined ? { stop_sequence: stopSequence } : {}),
      },
      ok('next turn fine'),
    );
    const handle = await startConversation(w);
    const turn = await handle.executeUpdate(sendMessageUpdate, { args: ['first'] });
    expect(turn).toMatchObject({ status, stopReason, text: `reply that stopped for ${stopReason}`, modelCalls: 1, toolCalls: 0 });
    if (error !== undefined) expect(turn.error).toContain(error);
    expect(await handle.query(statusQuery)).toMatchObject({ lastStopReason: stopReason, lastTurn: { status } });

    const next = await handle.executeUpdate(sendMessageUpdate, { args: ['second'] });
    expect(next).toMatchObject({ status: 'completed', text: 'next turn fine' });
    const requests = w.fake.requests.slice(from);
    expect(requests).toHaveLength(2);
    expect(validationErrors(requests)).toEqual([null, null]);
    expect(messagesOf(requests[1])).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: `reply that stopped for ${stopReason}` }] },
      { role: 'user', content: 'second' },
    ]);
    expect(labLogText()).not.toContain(`never-${stopReason}`);
  });
});
