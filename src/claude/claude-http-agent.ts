import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The HTTP client of the Claude calls: undici (what Node's own `fetch` is built on) with its header
 * and body timeouts off. Node's `fetch` would cut a request after 300 s without response headers,
 * or 300 s between two chunks of the body, whatever the caller decided; here the only limits are
 * the host's own (`src/errors/claude-time-limits.ts`), enforced by the call itself. Connecting
 * keeps undici's 10 s limit.
 */
const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** The `fetch` and `fetchOptions` to give the Anthropic SDK client. */
export function claudeHttpOptions(): { fetch: typeof globalThis.fetch; fetchOptions: { dispatcher: Agent } } {
  return { fetch: undiciFetch, fetchOptions: { dispatcher: agent } };
}
