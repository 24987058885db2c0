/**
 * The steps a test scripts the fake Messages API with: each request consumes one step, which says
 * what the "model" answers.
 */
import type { ContentBlock, StopReason, TextBlock, ToolUseBlock, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { RecordedRequest } from './recorded-request';

/** A text block as a script writes it: `citations` may be left out. */
export interface ScriptTextBlock {
  type: 'text';
  text: string;
  citations?: TextBlock['citations'];
}

/** A tool_use block as a script writes it: without `id` the fake generates a `toolu_` id. */
export interface ScriptToolUseBlock {
  type: 'tool_use';
  id?: string;
  name: string;
  input: unknown;
  caller?: ToolUseBlock['caller'];
}

/** Any content block the real API can return; text and tool_use in their lenient script forms. */
export type ScriptContentBlock = ScriptTextBlock | ScriptToolUseBlock | Exclude<ContentBlock, TextBlock | ToolUseBlock>;

/** Answer 200 with a full Message body built from this content. */
export interface ScriptMessageStep {
  kind: 'message';
  content: ScriptContentBlock[];
  /** Any string, so tests can also send a stop reason the SDK does not know yet. */
  stop_reason: StopReason | (string & {});
  stop_sequence?: string | null;
  /** Overrides the estimated usage field by field. */
  usage?: Partial<Usage>;
  /** Extra response headers (e.g. rate-limit headers). */
  headers?: Record<string, string>;
  /** Wait this long before answering, e.g. to test timeouts and heartbeats. */
  delayMs?: number;
}

/** Answer with an HTTP error and the real API's error body. */
export interface ScriptErrorStep {
  kind: 'error';
  status: number;
  /** Defaults from the status, like the real API (429 → `rate_limit_error`, 529 → `overloaded_error`…). */
  errorType?: string;
  message?: string;
  /** e.g. `{ 'retry-after': '1' }` or `{ 'x-should-retry': 'false' }`. */
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Decide the answer from the request itself (e.g. echo a tool_result back). */
export interface ScriptRespondStep {
  kind: 'respond';
  respond: (req: RecordedRequest) => ScriptStep | Promise<ScriptStep>;
}

/** One scripted answer of the fake Messages API. */
export type ScriptStep = ScriptMessageStep | ScriptErrorStep | ScriptRespondStep;
