import type { Container, ServerToolUsage, ServerToolUseBlock, Usage } from '@anthropic-ai/sdk/resources/messages';
import { randomId } from './random-id';
import type { AnswerContentBlock, AnswerServerToolUseBlock, AnswerToolUseBlock, MessageAnswer } from './messages-api-answer';

/** The usage object of a fake response: the four counters the real API always sends, plus overrides. */
export type FakeUsage = Pick<
  Usage,
  'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'
> &
  Partial<Usage>;

/** A 200 body of `POST /v1/messages`, shaped like the real API's non-streaming response. */
export interface FakeMessageBody {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  /** The answer's blocks as given, except that every tool_use has an id, and every server_tool_use an id and a caller. */
  content: Array<Exclude<AnswerContentBlock, AnswerToolUseBlock | AnswerServerToolUseBlock> | (AnswerToolUseBlock & { id: string }) | ServerToolUseBlock>;
  stop_reason: string;
  stop_sequence: string | null;
  usage: FakeUsage;
  /** Beta: the context edits the server applied (only when the answer says so). */
  context_management?: { applied_edits: unknown[] };
  /** Only when the answer names one (code execution). */
  container?: Container | null;
}

/**
 * The `usage.server_tool_use` the real API would report for these blocks: one web search per
 * `web_search_tool_result` with results, one web fetch per `web_fetch_tool_result` that fetched.
 * Undefined when the answer ran neither.
 */
function serverToolUsage(content: readonly AnswerContentBlock[]): ServerToolUsage | undefined {
  const searches = content.filter((b) => b.type === 'web_search_tool_result' && Array.isArray(b.content)).length;
  const fetches = content.filter((b) => b.type === 'web_fetch_tool_result' && b.content.type === 'web_fetch_result').length;
  return searches > 0 || fetches > 0 ? { web_search_requests: searches, web_fetch_requests: fetches } : undefined;
}

/** Roughly 4 bytes a token: crude, but it grows with the conversation, which is what callers watch. */
export function estimateTokens(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 4));
}

/**
 * Builds the response body for a `message` answer. `model` is echoed from the request like the real
 * API; tool_use blocks without an id get a fresh `toolu_` id so every call is distinct.
 */
export function buildMessageBody(answer: MessageAnswer, model: string, requestBytes: number): FakeMessageBody {
  const content: FakeMessageBody['content'] = answer.content.map((block) => {
    if (block.type === 'tool_use') return { ...block, id: block.id ?? randomId('toolu_') };
    if (block.type === 'server_tool_use') return { ...block, id: block.id ?? randomId('srvtoolu_'), caller: block.caller ?? { type: 'direct' } };
    return block;
  });
  const outputBytes = Buffer.byteLength(JSON.stringify(content), 'utf8');
  const serverTools = answer.usage?.server_tool_use === undefined ? serverToolUsage(answer.content) : undefined;
  return {
    id: randomId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: answer.stop_reason,
    stop_sequence: answer.stop_sequence ?? null,
    usage: {
      input_tokens: estimateTokens(requestBytes),
      output_tokens: estimateTokens(outputBytes),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      ...(serverTools !== undefined ? { server_tool_use: serverTools } : {}),
      ...answer.usage,
    },
    ...(answer.contextManagement !== undefined ? { context_management: answer.contextManagement } : {}),
    ...(answer.container !== undefined ? { container: answer.container } : {}),
  };
}
