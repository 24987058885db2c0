/**
 * The model every design of the performance benchmark talks to: the wire-level fake Messages API
 * (`src/offline`, reached through the real `@anthropic-ai/sdk`), answering each request from the
 * turn its first user message is tagged with (`bench/turn-settings.ts`), after a fixed latency.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { startMessagesApiServer, type MessagesApiAnswer, type ReceivedRequest } from '../../src/offline';
import { tagOf } from '../turn-settings';

/** Answers one request of a tagged conversation. */
export type Responder = (request: ReceivedRequest) => MessagesApiAnswer;

/** The running fake. */
export interface FakeModel {
  readonly url: string;
  /** Requests of conversation `tag` are answered by `responder`, `latencyMs` after they arrive. */
  play(tag: number, responder: Responder, latencyMs: number): void;
  /** Forgets a finished conversation. */
  done(tag: number): void;
  close(): Promise<void>;
}

function firstUserText(request: ReceivedRequest): string {
  const first = (request.body as { messages?: Array<{ content?: unknown }> }).messages?.[0]?.content;
  return typeof first === 'string' ? first : JSON.stringify(first ?? '');
}

export async function startFakeModel(): Promise<FakeModel> {
  const playing = new Map<number, { responder: Responder; latencyMs: number }>();
  const server = await startMessagesApiServer({
    label: 'bench',
    respond: async (request, signal) => {
      const tag = tagOf(firstUserText(request));
      const turn = tag !== undefined ? playing.get(tag) : undefined;
      if (!turn) return { kind: 'error', status: 500, message: `fake model: no benchmark conversation is tagged ${String(tag)}` };
      // Every waiting request listens on the server's one closing signal: hundreds at once are expected.
      setMaxListeners(0, signal);
      if (turn.latencyMs > 0) await sleep(turn.latencyMs, undefined, { signal });
      return turn.responder(request);
    },
  });
  return {
    url: server.url,
    play: (tag, responder, latencyMs) => void playing.set(tag, { responder, latencyMs }),
    done: (tag) => void playing.delete(tag),
    close: () => server.close(),
  };
}

/** A responder that ends every turn at once with one sentence (for turns without tools). */
export const endTurnAtOnce: Responder = () => ({
  kind: 'message',
  stop_reason: 'end_turn',
  content: [{ type: 'text', text: 'Noted: nothing to look up for this one.' }],
});
