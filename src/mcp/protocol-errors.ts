/**
 * What a server sends that is not the protocol: a line or body that is not JSON, or JSON that is not
 * a JSON-RPC message (a response whose `result` is not an object, say), or a response to no request
 * in flight. The SDK reports these on the connection (its `onerror`) and drops the message; a request
 * whose answer it was then only times out. Each connection's last one is kept here, so a call that
 * fails afterwards can say it met garbage rather than a slow tool (`callTool`: `mcp.protocol_error`).
 */
import type { Client } from '@modelcontextprotocol/client';

/** A protocol violation seen on a connection: when, and what (the SDK's message, short). */
interface Violation {
  at: number;
  what: string;
}

/** The last violation per client; a dropped client takes its entry with it. */
const lastViolation = new WeakMap<Client, Violation>();

/** The longest description kept: a server's garbage can be large. */
const MAX_DESCRIPTION = 200;

/**
 * Whether an error the SDK raised while reading the server's messages is the server breaking the
 * protocol: JSON that does not parse (`SyntaxError`), JSON that is not a JSON-RPC message (the SDK's
 * zod schemas throw a `ZodError`), or a response to an id nothing waits for.
 */
export function isProtocolViolation(err: unknown): err is Error {
  // By shape and name: an error of another realm (fetch's own, in a test's sandbox) fails `instanceof`.
  if (typeof err !== 'object' || err === null || !('name' in err) || !('message' in err)) return false;
  const { name, message } = err;
  return name === 'SyntaxError' || name === 'ZodError' || (typeof message === 'string' && /^Received a response for an unknown message ID/.test(message));
}

/** A protocol violation in words, for a failure message. */
export function describeViolation(err: Error): string {
  const kind = err.name === 'SyntaxError' ? 'not JSON' : err.name === 'ZodError' ? 'JSON, but not a valid JSON-RPC message' : err.message;
  return kind.length > MAX_DESCRIPTION ? `${kind.slice(0, MAX_DESCRIPTION)}…` : kind;
}

/** Records `err` against `client` when it is a protocol violation (see {@link isProtocolViolation}). */
export function noteProtocolError(client: Client, err: Error): void {
  if (isProtocolViolation(err)) lastViolation.set(client, { at: Date.now(), what: describeViolation(err) });
}

/** The last protocol violation seen on `client` at or after `since` (ms since the epoch), in words. */
export function protocolErrorSince(client: Client, since: number): string | undefined {
  const violation = lastViolation.get(client);
  return violation !== undefined && violation.at >= since ? violation.what : undefined;
}
