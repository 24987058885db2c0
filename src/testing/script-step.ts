/**
 * The steps a test scripts the fake Messages API with: each request consumes one step, which says
 * what the "model" answers.
 */
import type {
  AnswerContentBlock,
  AnswerServerToolUseBlock,
  AnswerTextBlock,
  AnswerToolUseBlock,
  DropAnswer,
  ErrorAnswer,
  MessageAnswer,
  RawAnswer,
} from '../offline';
import type { RecordedRequest } from './recorded-request';

/** A text block as a script writes it: `citations` may be left out. */
export type ScriptTextBlock = AnswerTextBlock;

/** A tool_use block as a script writes it: without `id` the fake generates a `toolu_` id. */
export type ScriptToolUseBlock = AnswerToolUseBlock;

/**
 * A server_tool_use block as a script writes it (id and caller may be left out). A tool search one
 * (`tool_search_tool_bm25` with `{query}`) is run by the fake over the request's deferred tools,
 * which puts its `tool_search_tool_result` right after it.
 */
export type ScriptServerToolUseBlock = AnswerServerToolUseBlock;

/**
 * Any content block the real API can return; text and tool_use in their lenient script forms. A
 * web search, web fetch or code execution round trip is a `server_tool_use` and its result block
 * (`web_search_tool_result`…, typed as the SDK's), with `stop_reason: 'pause_turn'` when the turn is
 * to be continued; the fake fills `usage.server_tool_use` from the web search and fetch results
 * unless the step sets it, and sends a step's `container` (code execution) as the real API does.
 */
export type ScriptContentBlock = AnswerContentBlock;

/** Answer 200 with a full Message body built from this content. */
export interface ScriptMessageStep extends MessageAnswer {
  /** Wait this long before answering, e.g. to test timeouts and heartbeats. */
  delayMs?: number;
}

/** Answer with an HTTP error and the real API's error body. */
export interface ScriptErrorStep extends ErrorAnswer {
  delayMs?: number;
}

/** Close the connection without answering (after `delayMs`, e.g. mid-request). */
export interface ScriptDropStep extends DropAnswer {
  delayMs?: number;
}

/** Answer with a status and a body sent byte for byte (e.g. a 200 whose body is not JSON). */
export interface ScriptRawStep extends RawAnswer {
  delayMs?: number;
}

/** Decide the answer from the request itself (e.g. echo a tool_result back). */
export interface ScriptRespondStep {
  kind: 'respond';
  respond: (req: RecordedRequest) => ScriptStep | Promise<ScriptStep>;
}

/** One scripted answer of the fake Messages API. */
export type ScriptStep = ScriptMessageStep | ScriptErrorStep | ScriptDropStep | ScriptRawStep | ScriptRespondStep;
