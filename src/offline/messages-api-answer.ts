/**
 * What the fake Messages API answers a valid request with, as a responder decides it: a message
 * built from content blocks, or an HTTP error with the real API's error body.
 */
import type { Container, ContentBlock, ServerToolUseBlock, StopReason, TextBlock, ToolUseBlock, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ReceivedRequest } from './received-request';

/** A text block as a responder writes it: `citations` may be left out. */
export interface AnswerTextBlock {
  type: 'text';
  text: string;
  citations?: TextBlock['citations'];
}

/** A tool_use block as a responder writes it: without `id` the server generates a `toolu_` id. */
export interface AnswerToolUseBlock {
  type: 'tool_use';
  id?: string;
  name: string;
  input: unknown;
  caller?: ToolUseBlock['caller'];
}

/**
 * A server_tool_use block as a responder writes it: without `id` the server generates a `srvtoolu_`
 * id, without `caller` it is `{type: 'direct'}`. A tool search one is run by the server
 * (src/offline/tool-search-emulation.ts), which puts its result right after it.
 */
export interface AnswerServerToolUseBlock {
  type: 'server_tool_use';
  id?: string;
  name: ServerToolUseBlock['name'];
  input: unknown;
  caller?: ServerToolUseBlock['caller'];
}

/**
 * A `compaction` block (beta): the fake puts one first when a request with the compaction edit
 * reaches its trigger (src/offline/context-editing-emulation.ts); a script may give one too.
 */
export interface AnswerCompactionBlock {
  type: 'compaction';
  content: string | null;
  encrypted_content?: string | null;
  signature?: string | null;
}

/** Any content block the real API can return; text, tool_use and server_tool_use in their lenient forms. */
export type AnswerContentBlock =
  | AnswerTextBlock
  | AnswerToolUseBlock
  | AnswerServerToolUseBlock
  | AnswerCompactionBlock
  | Exclude<ContentBlock, TextBlock | ToolUseBlock | ServerToolUseBlock>;

/**
 * How a `message` answer goes out when the request asked for `stream: true` (ignored otherwise):
 * the pace of its events, and a failure after it began, as the real API's streams can fail.
 */
export interface StreamShape {
  /** Wait this long before each event after the first (a long generation, a slow model). */
  eventGapMs?: number;
  /** Text and JSON deltas in pieces of this many characters (default 24). */
  chunkChars?: number;
  /**
   * Text and thinking deltas one word each (a word with the whitespace after it), as a model writes
   * them, instead of pieces of `chunkChars`; with `eventGapMs`, a word every so often. JSON deltas
   * keep `chunkChars`.
   */
  chunkWords?: boolean;
  /** After this many events, an `error` event (default `overloaded_error`) ends the stream. */
  errorAfter?: { events: number; errorType?: string; message?: string };
  /** After this many events, nothing more: the connection stays open and silent (a stalled stream). */
  stallAfterEvents?: number;
  /** After this many events, the connection is closed mid-stream. */
  dropAfterEvents?: number;
  /**
   * After this many events, wait until `until` settles, then go on (a test sees what reached its
   * client before the rest of the answer is written). Only for answers built in code.
   */
  holdAfter?: { events: number; until: PromiseLike<unknown> };
  /**
   * Sees each event right after it is written, with its place in the stream (e.g. a benchmark
   * records when each word went out). A throw is ignored. Only for answers built in code.
   */
  onEvent?: (event: { event: string; data: Record<string, unknown> }, index: number) => void;
}

/** Answer 200 with a full Message body built from this content (streamed as events for `stream: true`). */
export interface MessageAnswer {
  kind: 'message';
  content: AnswerContentBlock[];
  /** Any string, so tests can also send a stop reason the SDK does not know yet. */
  stop_reason: StopReason | (string & {});
  stop_sequence?: string | null;
  /**
   * Overrides the estimated usage field by field. Without `server_tool_use`, an answer holding web
   * search or web fetch results gets the count of them, as the real API reports its server tools.
   */
  usage?: Partial<Usage>;
  /** The code execution container the answer used (the real API's `container`; absent: none). */
  container?: Container | null;
  /** Extra response headers (e.g. rate-limit headers). */
  headers?: Record<string, string>;
  /** The response's `context_management` (beta): the edits the server applied, e.g. tool uses cleared. */
  contextManagement?: { applied_edits: unknown[] };
  /** For a streaming request: pace and faults of the event stream. */
  stream?: StreamShape;
}

/** Answer with an HTTP error and the real API's error body. */
export interface ErrorAnswer {
  kind: 'error';
  status: number;
  /** Defaults from the status, like the real API (429 → `rate_limit_error`, 529 → `overloaded_error`…). */
  errorType?: string;
  message?: string;
  /** e.g. `{ 'retry-after': '1' }` or `{ 'x-should-retry': 'false' }`. */
  headers?: Record<string, string>;
}

/** Close the connection without answering: a dropped connection, as a proxy or the network would. */
export interface DropAnswer {
  kind: 'drop';
}

/** Answer with this status and body byte for byte, e.g. a 200 whose body is not JSON. */
export interface RawAnswer {
  kind: 'raw';
  status: number;
  body: string;
  /** Defaults to `application/json`: a broken body that claims to be JSON is the realistic case. */
  contentType?: string;
}

/** One answer of the fake Messages API. */
export type MessagesApiAnswer = MessageAnswer | ErrorAnswer | DropAnswer | RawAnswer;

/**
 * Decides the answer to a request that passed validation. `signal` aborts when the server closes,
 * so a responder that waits (a scripted delay) never holds `close()` open.
 */
export type MessagesApiResponder = (request: ReceivedRequest, signal: AbortSignal) => MessagesApiAnswer | Promise<MessagesApiAnswer>;
