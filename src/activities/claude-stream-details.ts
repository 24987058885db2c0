/**
 * What a `callClaude` activity heartbeats while Claude writes: the answer's text so far, as a
 * window over its end. Heartbeat details live in the server's state of the running activity, read
 * by `DescribeWorkflowExecution` (its pending activities); they are not events of the workflow's
 * history, so the token stream never enters it. Shared by the publisher (the activity) and the
 * followers (`src/client/follow-conversation.ts`).
 */

/** The most text one heartbeat carries, in UTF-16 code units: the end of the answer so far. */
export const STREAM_WINDOW_CHARS = 4096;

/** A window over the end of a text that grows: what a heartbeat carries of it. */
export interface StreamWindow {
  /** Length of the text so far (UTF-16 code units). */
  length: number;
  /** Where `text` starts: `length - text.length`. */
  from: number;
  /** The text from `from` to `length`: at most {@link STREAM_WINDOW_CHARS}. */
  text: string;
}

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
  /**
   * Claude's thinking so far (its `thinking_delta`s, all thinking blocks joined), as a window of its
   * own; absent while there is none (and from workers before it), so the answer's fields keep their meaning.
   */
  thinking?: StreamWindow;
}

/** The last `windowChars` of `text`, not starting inside a surrogate pair. */
function windowOf(text: string, windowChars: number): StreamWindow {
  let from = Math.max(0, text.length - windowChars);
  const code = text.charCodeAt(from);
  if (from > 0 && code >= 0xdc00 && code <= 0xdfff) from += 1;
  return { length: text.length, from, text: text.slice(from) };
}

function readWindow(value: unknown): StreamWindow | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const window = value as Partial<StreamWindow>;
  if (typeof window.text !== 'string' || typeof window.length !== 'number' || typeof window.from !== 'number') return undefined;
  if (window.from < 0 || window.from + window.text.length !== window.length) return undefined;
  return { length: window.length, from: window.from, text: window.text };
}

/**
 * The details for the answer `text` so far: its last {@link STREAM_WINDOW_CHARS}, not starting
 * inside a surrogate pair; with the `thinking` so far likewise, when there is any.
 */
export function streamDetails(text: string, attempt: number, windowChars: number = STREAM_WINDOW_CHARS, thinking = ''): ClaudeStreamDetails {
  return { stream: 'claude-text', attempt, ...windowOf(text, windowChars), ...(thinking !== '' ? { thinking: windowOf(thinking, windowChars) } : {}) };
}

/** The details as sent, or undefined for anything else (another activity's, an older worker's, none). */
export function readStreamDetails(value: unknown): ClaudeStreamDetails | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const details = value as Partial<ClaudeStreamDetails>;
  if (details.stream !== 'claude-text' || typeof details.text !== 'string') return undefined;
  if (typeof details.length !== 'number' || typeof details.from !== 'number' || typeof details.attempt !== 'number') return undefined;
  if (details.from < 0 || details.from + details.text.length !== details.length) return undefined;
  const thinking = readWindow(details.thinking);
  return { stream: 'claude-text', attempt: details.attempt, length: details.length, from: details.from, text: details.text, ...(thinking ? { thinking } : {}) };
}
