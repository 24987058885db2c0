import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildErrorBody } from './error-body';
import { buildMessageBody } from './message-body';
import { randomId } from './random-id';
import type { RecordedRequest } from './recorded-request';
import { respondByRules } from './rules-responder';
import type { ScriptMessageStep, ScriptStep } from './script';
import { validateMessagesRequest } from './validate-request';

/** A running fake of `POST /v1/messages`. */
export interface FakeMessagesApi {
  /** e.g. `http://127.0.0.1:PORT`: the SDK's `baseURL` (it appends `/v1/messages`). */
  readonly url: string;
  /** Every request received, in order, including invalid ones and ones that found no step. */
  readonly requests: RecordedRequest[];
  /** Scripted mode: each request consumes the next step. Rules mode: queued steps go first. */
  enqueue(...steps: ScriptStep[]): void;
  /** Steps not consumed yet. */
  pending(): number;
  /** Stops listening and drops open connections (including requests still in a `delayMs`). */
  close(): Promise<void>;
}

/** How to start the fake. */
export interface FakeMessagesApiOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: the fake is never meant to be reachable from elsewhere. */
  host?: string;
  /**
   * `scripted` (default): answers come from the script, and a request that finds it empty gets a
   * loud 500. `rules`: the offline stand-in answers whatever the script does not.
   */
  mode?: 'scripted' | 'rules';
  /** Steps queued before the first request. */
  script?: ScriptStep[];
  /** One line per request, e.g. for `npm start` to show what the stand-in did. */
  log?: (line: string) => void;
}

/** `respond` steps may return further `respond` steps; this many in a row means a loop in a test. */
const MAX_RESPOND_DEPTH = 10;

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  summary: string;
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

function errorReply(status: number, errorType: string | undefined, message: string | undefined, headers: Record<string, string> = {}): Reply {
  const requestId = randomId('req_');
  const body = buildErrorBody(status, errorType, message, requestId);
  return {
    status,
    headers: { 'request-id': requestId, ...headers },
    body,
    summary: `${status} ${body.error.type}: ${body.error.message}`,
  };
}

function messageReply(step: ScriptMessageStep, model: string, requestBytes: number): Reply {
  const body = buildMessageBody(step, model, requestBytes);
  const tools = body.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : []));
  return {
    status: 200,
    headers: { 'request-id': randomId('req_'), ...step.headers },
    body,
    summary: `200 stop_reason=${body.stop_reason}${tools.length > 0 ? ` tools=${tools.join(',')}` : ''}`,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts a wire-level fake of Claude's Messages API on 127.0.0.1, for tests (driven through the
 * real `@anthropic-ai/sdk`) and for running offline without an API key. It validates requests like
 * the real API, records every request, and answers from a script or by rules.
 */
export async function startFakeMessagesApi(options: FakeMessagesApiOptions = {}): Promise<FakeMessagesApi> {
  const mode = options.mode ?? 'scripted';
  const host = options.host ?? '127.0.0.1';
  const queue: ScriptStep[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const log = options.log;
  // Aborted by close(): cuts short any delayMs so close() never waits for a slow scripted step.
  const closing = new AbortController();

  async function delay(ms: number | undefined): Promise<void> {
    if (ms !== undefined && ms > 0) await sleep(ms, undefined, { signal: closing.signal });
  }

  /** Turns the next step (after any `respond` indirection) into a reply. */
  async function answer(step: ScriptStep, recorded: RecordedRequest, model: string, bytes: number): Promise<Reply> {
    let current = step;
    for (let depth = 0; current.kind === 'respond'; depth++) {
      if (depth >= MAX_RESPOND_DEPTH) {
        return errorReply(500, 'api_error', `fake Messages API: ${MAX_RESPOND_DEPTH} respond steps in a row; is a respond function returning itself?`);
      }
      try {
        current = await current.respond(recorded);
      } catch (error) {
        return errorReply(500, 'api_error', `fake Messages API: a respond step threw: ${describe(error)}`);
      }
    }
    await delay(current.delayMs);
    if (current.kind === 'error') return errorReply(current.status, current.errorType, current.message, current.headers);
    return messageReply(current, model, bytes);
  }

  async function handle(req: IncomingMessage): Promise<Reply> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const parsed = raw === '' ? { ok: true as const, value: undefined } : parseJson(raw);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: lowerCaseHeaders(req),
      body: parsed.ok ? parsed.value : raw,
      receivedAt: Date.now(),
    };
    requests.push(recorded);

    if (recorded.method !== 'POST' || path !== '/v1/messages') {
      return errorReply(404, 'not_found_error', `fake Messages API: only POST /v1/messages exists, not ${recorded.method} ${path}`);
    }
    if (!parsed.ok) {
      return errorReply(400, 'invalid_request_error', 'There was an error parsing the body of your request: it is not valid JSON');
    }
    const invalid = validateMessagesRequest(parsed.value);
    if (invalid !== null) return errorReply(400, 'invalid_request_error', invalid);

    // Validation passed, so the body is an object with a string model.
    const model = (parsed.value as { model: string }).model;
    const bytes = Buffer.byteLength(raw, 'utf8');
    const step = queue.shift();
    if (step) return answer(step, recorded, model, bytes);
    if (mode === 'rules') return messageReply(respondByRules(parsed.value), model, bytes);
    return errorReply(
      500,
      'api_error',
      `fake Messages API: the script ran out: request #${requests.length} found no scripted step (enqueue one more step per expected request)`,
    );
  }

  function send(res: ServerResponse, reply: Reply): void {
    if (res.destroyed) return;
    const json = JSON.stringify(reply.body);
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
        if (closing.signal.aborted) return; // close() cut a delayMs short: the socket is gone anyway
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
  log?.(`fake Messages API (${mode}) listening on ${url}`);
  let closed: Promise<void> | undefined;

  return {
    url,
    requests,
    enqueue(...steps: ScriptStep[]): void {
      queue.push(...steps);
    },
    pending(): number {
      return queue.length;
    },
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
