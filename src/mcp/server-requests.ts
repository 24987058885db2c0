/**
 * Requests a server sends the host on the open connection (the 2025 wire: `elicitation/create`,
 * `sampling/createMessage`, `roots/list`), and the capabilities that let it send them (issue 27).
 *
 * A connection is shared by every call of the worker to that server, and a 2025 request does not
 * say which call it belongs to (on stdio nothing could). It goes to the call that asked first among
 * those in flight on the connection, which is exact whenever one call at a time runs there (the
 * common case; say so when several conversations share a stdio server that elicits). That call's
 * activity hands it to its conversation (src/activities/call-inputs.ts) and holds the call, with
 * heartbeats, until the answer comes. With no call in flight, a form is cancelled and a completion
 * refused; roots are always answered: the server's own (mcp.json `roots`), and the conversation's
 * when a call is in flight. A 2025-11-25 server may ask for a form or a completion as a task instead
 * (`params.task`): src/mcp/tasks/receiver-edge.ts takes those, and has them answered the same way
 * ({@link answerServerInput}).
 *
 * The same capabilities, sent in every 2026-07-28 request's `_meta`, let such a server answer
 * `input_required` instead (src/activities/call-tool.ts hands those to the workflow).
 */
import { ProtocolError, SdkError, SdkErrorCode, type Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './config';
import type { ServerInputRequest } from '../input/input-requests';
import { samplingRejected, type ServerInputResponse } from '../input/input-responses';

/** One tool call in flight that can take a server's requests. */
export interface CallAsker {
  /**
   * Hands a request to the call's conversation and resolves with its answer. `withdrawn` aborts
   * when the server no longer wants the answer (it cancelled the request, or the task that carries
   * it): a request still waiting for the user then leaves the conversation, and the ask rejects.
   */
  ask(request: ServerInputRequest, withdrawn?: AbortSignal): Promise<ServerInputResponse>;
  /** The conversation's own roots. */
  roots: readonly string[];
  /**
   * The server says the out-of-band interaction of a URL elicitation it asked for is done
   * (`notifications/elicitation/complete`, 2025-11-25): a URL request still waiting is settled.
   */
  complete?(elicitationId: string): Promise<void>;
  /**
   * Aborted once the call is cancelled (its turn was). Such a call takes no new request, and a
   * request it held goes on to the next call in flight (see {@link answerServerInput}).
   */
  cancelled?: AbortSignal;
}

const inFlight = new WeakMap<Client, CallAsker[]>();

/** The capabilities the host declares to `server`: elicitation (form and URL), roots, and sampling unless its policy denies it. */
export function hostCapabilities(server: McpServerConfig): ClientCapabilities {
  return {
    elicitation: { form: {}, url: {} },
    roots: { listChanged: true },
    ...(server.sampling !== 'deny' ? { sampling: { tools: {} } } : {}),
  };
}

/** The roots a server is given: its own from mcp.json, then the conversation's, each once. */
export function rootsFor(server: McpServerConfig, conversationRoots: readonly string[] = []): { roots: Array<{ uri: string; name?: string }> } {
  const uris = [...new Set([...(server.roots ?? []), ...conversationRoots])];
  return { roots: uris.map((uri) => ({ uri, ...(rootName(uri) !== undefined ? { name: rootName(uri) } : {}) })) };
}

function rootName(uri: string): string | undefined {
  const path = uri.replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last === '' || last.includes(':') ? undefined : decodeURIComponent(last);
}

/** Registers `asker` as in flight on `client` until the returned function is called. */
export function beginAsking(client: Client, asker: CallAsker): () => void {
  const list = inFlight.get(client) ?? [];
  list.push(asker);
  inFlight.set(client, list);
  return () => {
    const index = list.indexOf(asker);
    if (index >= 0) list.splice(index, 1);
  };
}

/** Whether `asker`'s call is known to be cancelled. */
function isCancelled(asker: CallAsker): boolean {
  return asker.cancelled?.aborted === true;
}

/** The first call in flight on `client`'s connection that is not cancelled, skipping `passed`. */
function firstInFlight(client: Client, passed: ReadonlySet<CallAsker> = new Set()): CallAsker | undefined {
  return inFlight.get(client)?.find((asker) => !isCancelled(asker) && !passed.has(asker));
}

/** How the host answers one elicitation or sampling request of a server. */
export interface ServerInputAnswer {
  /** Whether a call in flight took the request (its conversation answers); false: the host answered alone. */
  asked: boolean;
  answer: Promise<ServerInputResponse>;
}

/**
 * Hands `request` (`elicitation/create` or `sampling/createMessage`) to the first call in flight on
 * `client`'s connection that is not cancelled; with none, the host answers alone: a form is
 * cancelled, a completion refused.
 *
 * A call learns that its turn was cancelled only at its next heartbeat, so for a moment a cancelled
 * call can still be the first in flight when a call of the next turn starts on the same connection
 * and its server asks. A request can no longer be answered by a cancelled call's conversation (its
 * reply is over), so when the call holding it turns out cancelled, the request goes on to the next
 * call in flight rather than failing there.
 */
export function answerServerInput(client: Client, request: ServerInputRequest, withdrawn?: AbortSignal): ServerInputAnswer {
  const asker = firstInFlight(client);
  if (asker !== undefined) return { asked: true, answer: askOnward(client, asker, request, new Set(), withdrawn) };
  const alone: ServerInputResponse =
    request.method === 'sampling/createMessage' ? samplingRejected('no tool call of a conversation is running on this connection') : { result: { action: 'cancel' } };
  return { asked: false, answer: Promise.resolve(alone) };
}

/** `asker`'s answer to `request`; if its call is cancelled meanwhile, the next call's in flight (as {@link answerServerInput} says). */
async function askOnward(client: Client, asker: CallAsker, request: ServerInputRequest, passed: Set<CallAsker>, withdrawn?: AbortSignal): Promise<ServerInputResponse> {
  try {
    return await asker.ask(request, withdrawn);
  } catch (err) {
    if (!isCancelled(asker) || withdrawn?.aborted === true) throw err;
    passed.add(asker);
    const next = firstInFlight(client, passed);
    if (next === undefined) throw err;
    return askOnward(client, next, request, passed, withdrawn);
  }
}

/**
 * Aborts when the server withdraws the request whose handler got `signal`: the SDK aborts that
 * signal for the server's `notifications/cancelled`, and also when the connection closes, which is
 * no withdrawal. A lost connection fails the call, whose retry asks the same question again: it must
 * find it still waiting (or answered), not cancelled.
 */
export function withdrawnBy(signal: AbortSignal): AbortSignal {
  const withdrawn = new AbortController();
  const closed = (reason: unknown): boolean => reason instanceof SdkError && reason.code === SdkErrorCode.ConnectionClosed;
  const onAbort = (): void => {
    if (!closed(signal.reason)) withdrawn.abort(signal.reason);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return withdrawn.signal;
}

/** The server's answer, or the JSON-RPC error it is to get. */
function settle(response: ServerInputResponse): Record<string, unknown> {
  if ('error' in response) throw new ProtocolError(response.error.code, response.error.message);
  return response.result;
}

/** Sets the handlers of the requests a 2025 server may send on `client`'s connection. */
export function installServerRequestHandlers(client: Client, server: McpServerConfig): void {
  client.setRequestHandler(
    'elicitation/create',
    async (request, ctx) => settle(await answerServerInput(client, { method: request.method, params: request.params }, withdrawnBy(ctx.mcpReq.signal)).answer) as never,
  );
  if (server.sampling !== 'deny') {
    client.setRequestHandler(
      'sampling/createMessage',
      async (request, ctx) => settle(await answerServerInput(client, { method: request.method, params: request.params }, withdrawnBy(ctx.mcpReq.signal)).answer) as never,
    );
  }
  client.setNotificationHandler('notifications/elicitation/complete', async (notification) => {
    const elicitationId = (notification.params as { elicitationId?: unknown } | undefined)?.elicitationId;
    if (typeof elicitationId !== 'string') return;
    for (const asker of inFlight.get(client) ?? []) if (asker.complete !== undefined) await asker.complete(elicitationId);
  });
  client.setRequestHandler('roots/list', () => {
    const roots = rootsFor(server, firstInFlight(client)?.roots ?? []);
    // Answered after the reply is on its way: the call that announced a change may go on.
    const asked = waitingForRoots.get(client);
    if (asked !== undefined) setTimeout(asked, 10).unref();
    return roots;
  });
}

/** The roots each connection's server was last told of (as a key), for `announceRoots`. */
const announced = new WeakMap<Client, string>();
/** How long a call waits for the server to ask for roots again after being told they changed. */
const ROOTS_ASK_WAIT_MS = 2000;

/**
 * Before a 2025 call whose conversation has roots other than those its server was last told of:
 * sends `notifications/roots/list_changed` and gives the server a moment to ask `roots/list` again
 * (answered with this call's roots), so the call runs with them. A server that does not ask (it
 * declared nothing of roots, or ignores the notification) costs at most that moment, once per change.
 */
export async function announceRoots(client: Client, server: McpServerConfig, conversationRoots: readonly string[]): Promise<void> {
  const key = JSON.stringify(rootsFor(server, conversationRoots));
  // Calls started together with the same roots wait for the one announcement under way.
  const pending = announcing.get(client);
  if (pending?.key === key) return pending.done;
  const before = announced.get(client) ?? JSON.stringify(rootsFor(server));
  if (key === before) return;
  announced.set(client, key);
  let asked: () => void = () => undefined;
  const askedAgain = new Promise<void>((resolve) => {
    asked = resolve;
  });
  waitingForRoots.set(client, asked);
  const entry: { key: string; done: Promise<void> } = { key, done: Promise.resolve() };
  entry.done = (async () => {
    try {
      await client.notification({ method: 'notifications/roots/list_changed' });
      await Promise.race([askedAgain, new Promise((resolve) => setTimeout(resolve, ROOTS_ASK_WAIT_MS).unref())]);
    } finally {
      waitingForRoots.delete(client);
      if (announcing.get(client) === entry) announcing.delete(client);
    }
  })();
  announcing.set(client, entry);
  return entry.done;
}

/** The announcement under way on each connection, for calls started at the same time. */
const announcing = new WeakMap<Client, { key: string; done: Promise<void> }>();
const waitingForRoots = new WeakMap<Client, () => void>();
