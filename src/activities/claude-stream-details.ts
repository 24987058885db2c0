/**
 * What a `callClaude` activity heartbeats while Claude writes: the answer's text so far, as a
 * window over its end. Heartbeat details live in the server's state of the running activity, read
 * by `DescribeWorkflowExecution` (its pending activities); they are not events of the workflow's
 * history, so the token stream never enters it. Shared by the publisher (the activity) and the
 * followers (`src/client/follow-conversation.ts`).
 */

/** The most text one heartbeat carries, in UTF-16 code units: the end of the answer so far. */
export const STREAM_WINDOW_CHARS = 4096;

/** The heartbeat details of a streaming Claude call. */
export interface ClaudeStreamDetails {
  /** Tells these details from other shapes (a tool call heartbeats its failure count). */
  stream: 'claude-text';
  /** The activity's attempt: a retried call streams again from the start. */
  attempt: number;
  /** Length of the answer's text so far (UTF-16 code units, all text blocks joined). */
  length: number;
  /** Where `text` starts in the answer: `length - text.length`. */
  from: number;
  /** The answer's text from `from` to `length`: at most {@link STREAM_WINDOW_CHARS}. */
  text: string;
}

/** The details for the answer `text` so far: its last {@link STREAM_WINDOW_CHARS}, not starting inside a surrogate pair. */
export function streamDetails(text: string, attempt: number, windowChars: number = STREAM_WINDOW_CHARS): ClaudeStreamDetails {
  let from = Math.max(0, text.length - windowChars);
  const code = text.charCodeAt(from);
  if (from > 0 && code >= 0xdc00 && code <= 0xdfff) from += 1;
  return { stream: 'claude-text', attempt, length: text.length, from, text: text.slice(from) };
}

/** The details as sent, or undefined for anything else (another activity's, an older worker's, none). */
export function readStreamDetails(value: unknown): ClaudeStreamDetails | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const details = value as Partial<ClaudeStreamDetails>;
  if (details.stream !== 'claude-text' || typeof details.text !== 'string') return undefined;
  if (typeof details.length !== 'number' || typeof details.from !== 'number' || typeof details.attempt !== 'number') return undefined;
  if (details.from < 0 || details.from + details.text.length !== details.length) return undefined;
  return { stream: 'claude-text', attempt: details.attempt, length: details.length, from: details.from, text: details.text };
}
