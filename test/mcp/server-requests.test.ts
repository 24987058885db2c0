/**
 * Which call in flight takes a 2025 server's request (src/mcp/server-requests.ts), with a real SDK
 * v1 server and the host's SDK v2 client over an in-memory pair: the first call that is not
 * cancelled; and a request held by a call that turns out cancelled (its turn was, and the activity
 * learnt it at its next heartbeat) goes on to the next call in flight instead of failing there;
 * a request the server cancels is withdrawn from the call holding it, but not one whose connection
 * closed (the call's retry asks it again).
 */
import { Client, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerInputRequest } from '../../src/input/input-requests';
import type { ServerInputResponse } from '../../src/input/input-responses';
import type { McpServerConfig } from '../../src/mcp/config';
import { beginAsking, installServerRequestHandlers, withdrawnBy, type CallAsker } from '../../src/mcp/server-requests';
import { clientOptionsFor } from '../../src/mcp/transport/negotiation';

const config: McpServerConfig = { name: 'r', transport: 'stdio', command: 'unused', args: [], env: {}, tools: {}, sampling: 'auto' };
const form = {
  method: 'elicitation/create' as const,
  params: { message: 'Your name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } } },
};

/**
 * A call's asker as src/activities/call-inputs.ts makes it: it holds a request until the test
 * answers it, or fails it once its call is cancelled.
 */
function callAsker(name: string): CallAsker & { asked: ServerInputRequest[]; withdrawals: Array<AbortSignal | undefined>; answer(response: ServerInputResponse): void; cancel(): void } {
  const asked: ServerInputRequest[] = [];
  const withdrawals: Array<AbortSignal | undefined> = [];
  const cancellation = new AbortController();
  const waiting: Array<{ resolve: (response: ServerInputResponse) => void; reject: (err: Error) => void }> = [];
  return {
    roots: [],
    asked,
    withdrawals,
    cancelled: cancellation.signal,
    ask: (request, withdrawn) => {
      asked.push(request);
      withdrawals.push(withdrawn);
      if (cancellation.signal.aborted) return Promise.reject(new Error(`${name} was cancelled before its server asked`));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    answer: (response) => waiting.shift()?.resolve(response),
    cancel: () => {
      cancellation.abort();
      for (const w of waiting.splice(0)) w.reject(new Error(`${name} was cancelled while its server waited`));
    },
  };
}

describe('a 2025 server request and the calls in flight', () => {
  let server: Server;
  let client: Client;
  const stops: Array<() => void> = [];

  beforeEach(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    server = new Server({ name: 'asker', version: '1.0.0' }, { capabilities: {} });
    client = new Client({ name: 'host', version: '0' }, clientOptionsFor({ ...config, protocolVersion: '2025-11-25' }));
    installServerRequestHandlers(client, config);
    await server.connect(serverSide);
    await client.connect(clientSide);
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    await client.close();
    await server.close();
  });

  test('goes to the first call in flight', async () => {
    const first = callAsker('first');
    const second = callAsker('second');
    stops.push(beginAsking(client, first), beginAsking(client, second));
    const answered = server.request(form, ElicitResultSchema);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([first.asked.length, second.asked.length]).toEqual([1, 0]);
    first.answer({ result: { action: 'accept', content: { name: 'Ada' } } });
    await expect(answered).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } });
  });

  test('skips a call known to be cancelled', async () => {
    const stale = callAsker('stale');
    const next = callAsker('next');
    stops.push(beginAsking(client, stale), beginAsking(client, next));
    stale.cancel();
    const answered = server.request(form, ElicitResultSchema);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([stale.asked.length, next.asked.length]).toEqual([0, 1]);
    next.answer({ result: { action: 'decline' } });
    await expect(answered).resolves.toEqual({ action: 'decline' });
  });

  test('held by a call that turns out cancelled, goes on to the next call in flight', async () => {
    const stale = callAsker('stale');
    const next = callAsker('next');
    stops.push(beginAsking(client, stale), beginAsking(client, next));
    const answered = server.request(form, ElicitResultSchema);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stale.asked).toHaveLength(1);
    stale.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(next.asked).toEqual([{ method: 'elicitation/create', params: form.params }]);
    next.answer({ result: { action: 'accept', content: { name: 'Grace' } } });
    await expect(answered).resolves.toEqual({ action: 'accept', content: { name: 'Grace' } });
  });

  test('held by a call that turns out cancelled, with no other call in flight, fails as before', async () => {
    const stale = callAsker('stale');
    stops.push(beginAsking(client, stale));
    const answered = server.request(form, ElicitResultSchema);
    await new Promise((resolve) => setTimeout(resolve, 20));
    stale.cancel();
    await expect(answered).rejects.toThrow(/stale was cancelled while its server waited/);
  });

  test('a call whose answer fails for another reason fails the request: nothing goes on', async () => {
    const failing: CallAsker = { roots: [], ask: () => Promise.reject(new Error('the conversation is gone')) };
    const next = callAsker('next');
    stops.push(beginAsking(client, failing), beginAsking(client, next));
    await expect(server.request(form, ElicitResultSchema)).rejects.toThrow(/the conversation is gone/);
    expect(next.asked).toEqual([]);
  });

  test('only cancelled calls in flight: the host answers alone (a form is cancelled)', async () => {
    const stale = callAsker('stale');
    stops.push(beginAsking(client, stale));
    stale.cancel();
    await expect(server.request(form, ElicitResultSchema)).resolves.toEqual({ action: 'cancel' });
    expect(stale.asked).toEqual([]);
  });

  test('a request the server cancels (notifications/cancelled) is withdrawn from the call that holds it', async () => {
    const call = callAsker('call');
    stops.push(beginAsking(client, call));
    const abandon = new AbortController();
    const answered = server.request(form, ElicitResultSchema, { signal: abandon.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(call.withdrawals[0]?.aborted).toBe(false);
    abandon.abort('not needed any more');
    await expect(answered).rejects.toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(call.withdrawals[0]?.aborted).toBe(true);
  });

  test('a lost connection is no withdrawal: the question stays with its call, for the retry to find', async () => {
    const call = callAsker('call');
    stops.push(beginAsking(client, call));
    const answered = server.request(form, ElicitResultSchema);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await server.close();
    await expect(answered).rejects.toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(call.withdrawals[0]?.aborted).toBe(false);
  });
});

describe('withdrawnBy', () => {
  test('follows a cancellation, not a closed connection', () => {
    const cancelled = new AbortController();
    const byServer = withdrawnBy(cancelled.signal);
    cancelled.abort(new Error('not needed'));
    expect(byServer.aborted).toBe(true);
    const closed = new AbortController();
    const byClose = withdrawnBy(closed.signal);
    closed.abort(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    expect(byClose.aborted).toBe(false);
  });
});
