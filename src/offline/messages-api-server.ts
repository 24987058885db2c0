import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildErrorBody } from './error-body';
import { buildMessageBody, estimateTokens } from './message-body';
import { errorEvent, formatEvent, messageEvents, type StreamEvent } from './message-events';
import type { MessageAnswer, MessagesApiAnswer, MessagesApiResponder, StreamShape } from './messages-api-answer';
import { randomId } from './random-id';
import type { ReceivedRequest } from './received-request';
import { validateMessagesRequest } from './validate-request';
import { withToolSearchResults } from './tool-search-emulation';
import { contextManagementProblem, withContextManagement } from './context-editing-emulation';

/** A running fake of `POST /v1/messages`. */
export interface MessagesApiServer {
  /** e.g. `http://127.0.0.1:PORT`: the SDK's `baseURL` (it appends `/v1/messages`). */
  readonly url: string;
  /** Stops listening and drops open connections (including requests a responder still holds). */
  close(): Promise<void>;
}

/** How to start the server. */
export interface MessagesApiServerOptions {
  /** Answers each request that passed validation. */
  respond: MessagesApiResponder;
  /** Sees every request, valid or not, before it is answered (the test fake records them here). */
  onRequest?: (request: ReceivedRequest) => void;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: the fake is never meant to be reachable from elsewhere. */
  host?: string;
  /** One line per request, e.g. for `npm start` to show what the stand-in did. */
  log?: (line: string) => void;
  /** Names the responder in the first log line, e.g. `rules`. */
  label?: string;
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  summary: string;
  /** Sent as is instead of `body` as JSON. */
  raw?: string;
  /** Close the socket instead of answering. */
  drop?: boolean;
  /** A streamed answer (`stream: true`): server-sent events instead of `body`. */
  events?: { list: StreamEvent[]; shape: StreamShape };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function lowerCaseHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function errorReply(status: number, errorType: string | undefined, message: string | undefined, headers: Record<string, string> = {}, errorCode?: string): Reply {
  const requestId = randomId('req_');
  const body = buildErrorBody(status, errorType, message, requestId, errorCode);
  return {
    status,
    headers: { 'request-id': requestId, ...headers },
    body,
    summary: `${status} ${body.error.type}: ${body.error.message}`,
  };
}

function messageReply(answer: MessageAnswer, model: string, requestBytes: number, stream: boolean): Reply {
  const body = buildMessageBody(answer, model, requestBytes);
  const tools = body.content.flatMap((b) => (b.type === 'tool_use' || b.type === 'server_tool_use' ? [b.name] : []));
  const summary = `200 stop_reason=${body.stop_reason}${tools.length > 0 ? ` tools=${tools.join(',')}` : ''}`;
  const headers = { 'request-id': randomId('req_'), ...answer.headers };
  if (!stream) return { status: 200, headers, body, summary };
  const shape = answer.stream ?? {};
  return { status: 200, headers, body: undefined, summary: `${summary} (streamed)`, events: { list: messageEvents(body, shape.chunkChars, shape.chunkWords === true), shape } };
}

/**
 * `POST /v1/messages/count_tokens`: the request checked as a message request is (it takes no
 * `max_tokens`), and its input tokens by the fake's count, 4 bytes a token (what a message answer
 * to the same request would report as `input_tokens`). Nothing is recorded against the script.
 */
function countTokensReply(body: unknown, received: ReceivedRequest): Reply {
  if (typeof body === 'object' && body !== null && 'max_tokens' in body) {
    return errorReply(400, 'invalid_request_error', 'max_tokens: Extra inputs are not permitted');
  }
  const invalid = validateMessagesRequest({ ...(body as object), max_tokens: 1 });
  if (invalid !== null) return errorReply(400, 'invalid_request_error', invalid);
  const context = contextManagementProblem(body, received.headers);
  if (context !== null) return errorReply(400, 'invalid_request_error', context.message, {}, context.errorCode);
  const inputTokens = estimateTokens(received.bytes);
  return { status: 200, headers: { 'request-id': randomId('req_') }, body: { input_tokens: inputTokens }, summary: `200 input_tokens=${inputTokens}` };
}

function replyTo(answer: MessagesApiAnswer, model: string, requestBytes: number, stream: boolean): Reply {
  switch (answer.kind) {
    case 'error':
      return errorReply(answer.status, answer.errorType, answer.message, answer.headers);
    case 'drop':
      return { status: 0, headers: {}, body: undefined, drop: true, summary: 'connection dropped without an answer' };
    case 'raw':
      return {
        status: answer.status,
        headers: { 'content-type': answer.contentType ?? 'application/json' },
        body: undefined,
        raw: answer.body,
        summary: `${answer.status} raw body of ${Buffer.byteLength(answer.body, 'utf8')} bytes`,
      };
    case 'message':
      return messageReply(answer, model, requestBytes, stream);
    default: {
      const unreachable: never = answer;
      throw new Error(`unknown answer ${JSON.stringify(unreachable)}`);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts a wire-level fake of Claude's Messages API on 127.0.0.1, reached through the real
 * `@anthropic-ai/sdk`. It validates requests like the real API (a request the real API would refuse
 * gets the same 400) and leaves the answer to valid ones to `options.respond`: the offline
 * stand-in's rules, or a test's script.
 */
export async function startMessagesApiServer(options: MessagesApiServerOptions): Promise<MessagesApiServer> {
  const host = options.host ?? '127.0.0.1';
  const { log, onRequest, respond } = options;
  // Aborted by close(): a responder that waits stops waiting, so close() never hangs on it.
  const closing = new AbortController();

  async function handle(req: IncomingMessage): Promise<Reply> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const parsed = raw === '' ? { ok: true as const, value: undefined } : parseJson(raw);
    const received: ReceivedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: lowerCaseHeaders(req),
      body: parsed.ok ? parsed.value : raw,
      receivedAt: Date.now(),
      bytes: Buffer.byteLength(raw, 'utf8'),
    };
    onRequest?.(received);

    const counting = path === '/v1/messages/count_tokens';
    if (received.method !== 'POST' || (path !== '/v1/messages' && !counting)) {
      return errorReply(404, 'not_found_error', `fake Messages API: only POST /v1/messages and /v1/messages/count_tokens exist, not ${received.method} ${path}`);
    }
    if (!parsed.ok) {
      return errorReply(400, 'invalid_request_error', 'There was an error parsing the body of your request: it is not valid JSON');
    }
    if (counting) return countTokensReply(parsed.value, received);
    const invalid = validateMessagesRequest(parsed.value);
    if (invalid !== null) return errorReply(400, 'invalid_request_error', invalid);
    const context = contextManagementProblem(parsed.value, received.headers);
    if (context !== null) return errorReply(400, 'invalid_request_error', context.message, {}, context.errorCode);

    // Validation passed, so the body is an object with a string model.
    const { model, stream } = parsed.value as { model: string; stream?: boolean };
    const answer = await respond(received, closing.signal);
    // Tool searches in the answer are run here, as the real API runs them server-side.
    // So are compaction and the clearing of tool uses, when the request asks for them.
    const searched = answer.kind === 'message' ? withContextManagement(withToolSearchResults(answer, parsed.value), parsed.value) : answer;
    return replyTo(searched, model, Buffer.byteLength(raw, 'utf8'), stream === true);
  }

  /**
   * Writes a streamed answer event by event, with the shape's gaps and faults; stops when the client
   * goes away or the server closes.
   */
  async function sendEvents(res: ServerResponse, reply: Reply, events: NonNullable<Reply['events']>): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...reply.headers });
    const { list, shape } = events;
    const gone = (): boolean => res.destroyed || closing.signal.aborted;
    for (const [i, event] of list.entries()) {
      if (shape.dropAfterEvents !== undefined && i >= shape.dropAfterEvents) {
        res.socket?.destroy();
        return;
      }
      if (shape.stallAfterEvents !== undefined && i >= shape.stallAfterEvents) return; // open and silent until closed
      if (shape.errorAfter !== undefined && i >= shape.errorAfter.events) {
        const type = shape.errorAfter.errorType ?? 'overloaded_error';
        res.end(formatEvent(errorEvent(type, shape.errorAfter.message ?? buildErrorBody(529, type, undefined, '').error.message)));
        return;
      }
      if (shape.holdAfter !== undefined && i === shape.holdAfter.events) {
        await Promise.race([Promise.resolve(shape.holdAfter.until).catch(() => undefined), closing.signal.aborted ? Promise.resolve() : once(closing.signal, 'abort')]);
        if (gone()) return;
      }
      if (i > 0 && (shape.eventGapMs ?? 0) > 0) {
        await sleep(shape.eventGapMs, undefined, { signal: closing.signal }).catch(() => undefined);
      }
      if (gone()) return;
      res.write(formatEvent(event));
      try {
        shape.onEvent?.(event, i);
      } catch {
        // The observer's failure is its own: the stream goes on.
      }
    }
    res.end();
  }

  function send(res: ServerResponse, reply: Reply): void {
    if (res.destroyed) return;
    if (reply.drop) {
      res.socket?.destroy();
      return;
    }
    if (reply.events) {
      void sendEvents(res, reply, reply.events);
      return;
    }
    const json = reply.raw ?? JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(json, 'utf8')),
      ...reply.headers,
    });
    res.end(json);
  }

  const server = createServer((req, res) => {
    handle(req).then(
      (reply) => {
        log?.(`${req.method ?? '?'} ${req.url ?? '?'} -> ${reply.summary}`);
        send(res, reply);
      },
      (error: unknown) => {
        if (closing.signal.aborted) return; // close() cut a wait short: the socket is gone anyway
        const reply = errorReply(500, 'api_error', `fake Messages API: internal error: ${describe(error)}`);
        log?.(`${req.method ?? '?'} ${req.url ?? '?'} -> ${reply.summary}`);
        send(res, reply);
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  log?.(`fake Messages API${options.label !== undefined ? ` (${options.label})` : ''} listening on ${url}`);
  let closed: Promise<void> | undefined;

  return {
    url,
    close(): Promise<void> {
      // Idempotent: an afterAll may close a fake that a test already closed.
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of the SDK's fetch would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
