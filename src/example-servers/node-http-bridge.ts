/**
 * node:http ↔ fetch `Request`/`Response`, for the SDK v2 HTTP serving, which speaks only the web
 * standard (`@modelcontextprotocol/node`'s `toNodeHandler` does the same job, but is not a
 * dependency of this package).
 */
import type * as http from 'node:http';

/**
 * The web `Request` for a node request whose body (if any) has already been read. The returned
 * request's signal aborts when the client goes away before its response is complete, which is how
 * the SDK learns to stop an exchange or an open SSE stream.
 */
export function toWebRequest(req: http.IncomingMessage, res: http.ServerResponse, origin: string, body: Buffer | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const aborted = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    // GET and HEAD requests may not carry one.
    ...(body !== undefined && method !== 'GET' && method !== 'HEAD' && { body: new Uint8Array(body) }),
    signal: aborted.signal,
  });
}

/**
 * Writes a web `Response` to a node response: status and headers at once (an SSE stream's client
 * is waiting for them before the first event), then the body as it comes, with backpressure.
 */
export async function sendWebResponse(res: http.ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  // Typed `ReadableStream<any>` by undici's types; a fetch body is bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const stop = (): void => {
    reader.cancel().catch(() => undefined);
  };
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } finally {
    res.off('close', stop);
  }
}

/** Resolves when `res` can take more, or is gone. */
function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
