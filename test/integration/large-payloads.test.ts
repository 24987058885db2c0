/**
 * Issue 13 item 1: a conversation whose state is far above Temporal's 2 MB payload limit, because
 * it holds many images (base64 of random bytes: gzip cannot shrink them), still continues as new,
 * still answers, and `history` (the CLI's and ConversationClient's) still reads all of it, page by
 * page. Large payloads go to the external payload store (src/temporal/payload-store/).
 */
import { randomUUID } from 'node:crypto';
import { history } from '../../src/client/commands';
import { conversationOptions } from '../../src/client/conversation-options';
import type { MessageParam } from '../../src/conversation/types';
import type { TurnContent } from '../../src/conversation/turn-content';
import { conversationWorkflow } from '../../src/workflows';
import { sendMessageUpdate, statusQuery } from '../../src/workflows/definitions';
import { photoBase64 } from '../fixtures/photo-bytes';
import { expectedPhotoTurn as expectedTurn, PHOTO_CHARS, photoModel as model } from '../support/photo-turns';
import { tsServer } from '../support/repo';
import { startTestWorker, type TestWorker } from '../support/test-worker';

const TURNS = 10;

describe('large payloads (issue 13 item 1)', () => {
  let w: TestWorker;
  beforeAll(async () => {
    w = await startTestWorker({ servers: [tsServer('photo', 'test/fixtures/photo-server.ts')] });
  });
  afterAll(async () => {
    await w?.stop();
  });

  test('a transcript of 40 images (3.6 MB; gzip cannot shrink them) continues as new, answers, and history reads it all', async () => {
    w.fake.enqueue(...Array.from({ length: 2 * (TURNS + 1) }, () => model));
    const workflowId = `photos-${randomUUID()}`;
    // Continue-as-new only once the state is well above 2 MB (about 30 events a turn).
    const handle = await w.client.workflow.start(conversationWorkflow, {
      taskQueue: w.taskQueue,
      workflowId,
      args: [{ options: conversationOptions({ maxIterations: 3, continueAsNewAfterEvents: 240 }) }],
    });
    const firstRunId = handle.firstExecutionRunId;
    const send = (turn: number): Promise<unknown> =>
      Promise.race([
        w.client.workflow.getHandle(workflowId).executeUpdate(sendMessageUpdate, { args: [`photos ${turn}`] }),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`turn ${turn}: no answer within 60 s`)), 60_000)),
      ]);
    for (let turn = 1; turn <= TURNS; turn++) {
      expect(await send(turn)).toMatchObject({ status: 'completed', text: `seen ${turn}` });
    }
    // One more turn after the state passed 2 MB: the conversation continued as new and still answers.
    for (;;) {
      const description = await w.client.workflow.getHandle(workflowId).describe();
      if (description.runId !== firstRunId) break;
      expect((await w.client.workflow.getHandle(workflowId).query(statusQuery)).messageCount).toBeLessThanOrEqual(4 * TURNS);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(await send(TURNS + 1)).toMatchObject({ status: 'completed', text: `seen ${TURNS + 1}` });

    const messages = await history(w.client, workflowId);
    const expected = Array.from({ length: TURNS + 1 }, (_, i) => expectedTurn(i + 1)).flat();
    expect(messages.length).toBe(expected.length);
    expect(messages).toEqual(expected);
    expect(JSON.stringify(messages.slice(0, 4 * TURNS)).length).toBeGreaterThan(3_400_000); // 3.6 MB with the JSON of the messages around the images
  }, 10 * 60_000);

  test('a turn with large attached resources (issue 28): its update goes to the payload store, and the blocks reach Claude whole', async () => {
    const images = Array.from({ length: 4 }, (_, k) => photoBase64(`attached-${k}`, PHOTO_CHARS));
    const content: TurnContent = {
      attachments: images.map((data, k) => ({ server: 'photo', uri: `photo://${k}`, blocks: [{ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data } }] })),
    };
    w.fake.enqueue({ kind: 'message', content: [{ type: 'text', text: 'four photos' }], stop_reason: 'end_turn' });
    const workflowId = `attached-${randomUUID()}`;
    const handle = await w.client.workflow.start(conversationWorkflow, { taskQueue: w.taskQueue, workflowId, args: [{ options: conversationOptions({}) }] });
    expect(await handle.executeUpdate(sendMessageUpdate, { args: ['what are these?', content] })).toMatchObject({ status: 'completed', text: 'four photos' });
    // On the wire: the text, then the four images, whole.
    const sent = (w.fake.requests.at(-1)?.body as { messages: MessageParam[] }).messages.at(-1);
    expect((sent?.content as Array<{ type: string; source?: { data: string } }>).map((b) => b.source?.data ?? b.type)).toEqual(['text', ...images]);
    // In the history: the update's input (over 360 KB of base64 that gzip cannot shrink) is a small reference.
    const events = (await handle.fetchHistory()).events ?? [];
    const accepted = events.find((e) => e.workflowExecutionUpdateAcceptedEventAttributes)?.workflowExecutionUpdateAcceptedEventAttributes;
    const payloads = accepted?.acceptedRequest?.input?.args?.payloads ?? [];
    expect(payloads).toHaveLength(2);
    const bytes = payloads.reduce((sum, payload) => sum + (payload.data?.length ?? 0), 0);
    expect(bytes).toBeLessThan(16 * 1024);
    expect(await history(w.client, workflowId)).toHaveLength(2);
  }, 120_000);
});
