/**
 * The host's own spans around its activities, after the OpenTelemetry GenAI conventions: a `chat`
 * client span per Claude call (`callClaude`, `summarizeContext`, `sampleMessage`) and an
 * `execute_tool` span per MCP tool call, each under the activity attempt's span that Temporal's
 * interceptor opened (src/telemetry/worker-tracing.ts). The MCP request spans nest below the tool
 * span (mcp-request-spans.ts).
 *
 * A retried attempt is another span with its attempt number; a replay runs no activity. Content
 * (prompts, replies, tool arguments and results) is recorded only when capture is on
 * (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`), and capped; secrets never reach an
 * activity's input or output, so they cannot reach a span. With tracing off, every span here is
 * OpenTelemetry's no-op.
 */
import { Context } from '@temporalio/activity';
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { ReplyUsage } from '../claude/reply-usage';
import type { ClaudeReply, ConversationActivities, ToolCallInput, ToolCallOutput } from '../activities/types';
import { failureTypeOf } from './metered-activities';
import { currentTracing, HOST_TRACER } from './tracing';

/** The longest content attribute (characters) when content capture is on. */
export const MAX_CAPTURED_CHARS = 16_384;

/** True when content may go into spans. */
export function contentCaptured(): boolean {
  return currentTracing()?.captureContent === true;
}

/** `value` as JSON for a content attribute, capped at {@link MAX_CAPTURED_CHARS}. */
export function capturedJson(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  return json.length > MAX_CAPTURED_CHARS ? `${json.slice(0, MAX_CAPTURED_CHARS)}…` : json;
}

/** The activity's conversation and attempt, when it runs in one (always, in the worker). */
function activityAttributes(): Attributes {
  try {
    const info = Context.current().info;
    return {
      ...(info.workflowExecution !== undefined ? { 'gen_ai.conversation.id': info.workflowExecution.workflowId } : {}),
      'mcp_host.attempt': info.attempt,
    };
  } catch {
    return {};
  }
}

/** The usage attributes of a reply: the conventions' token counts, and the server tools' where any. */
export function usageAttributes(usage: ReplyUsage): Attributes {
  return {
    'gen_ai.usage.input_tokens': usage.input_tokens,
    'gen_ai.usage.output_tokens': usage.output_tokens,
    ...(usage.cache_read_input_tokens != null ? { 'gen_ai.usage.cache_read.input_tokens': usage.cache_read_input_tokens } : {}),
    ...(usage.cache_creation_input_tokens != null ? { 'gen_ai.usage.cache_creation.input_tokens': usage.cache_creation_input_tokens } : {}),
    ...(usage.server_tool_use !== undefined
      ? {
          'anthropic.server_tool_use.web_search_requests': usage.server_tool_use.web_search_requests,
          'anthropic.server_tool_use.web_fetch_requests': usage.server_tool_use.web_fetch_requests,
        }
      : {}),
    ...(usage.code_execution_calls !== undefined ? { 'anthropic.server_tool_use.code_execution_calls': usage.code_execution_calls } : {}),
  };
}

/** Runs `fn` in a new active span, ending it with `fn`'s outcome; a thrown error sets `error.type`. */
async function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer(HOST_TRACER).startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      const type = failureTypeOf(err);
      span.setAttribute('error.type', type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** What a Claude call's span records of its outcome. */
interface ChatOutcome {
  responseModel: string;
  usage: ReplyUsage;
  responseId?: string;
  finishReason?: string | null;
  /** The reply's content, recorded only when capture is on. */
  content?: unknown;
}

/** A Claude-calling activity in a `chat` span; `outcomeOf` undefined means no call was made. */
export function tracedChat<I extends { model: string }, O>(
  activity: (input: I) => Promise<O>,
  requestOf: (input: I) => Attributes,
  outcomeOf: (input: I, output: O) => ChatOutcome | undefined,
): (input: I) => Promise<O> {
  return (input) =>
    inSpan(
      `chat ${input.model}`,
      SpanKind.CLIENT,
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.system': 'anthropic',
        'gen_ai.request.model': input.model,
        ...requestOf(input),
        ...activityAttributes(),
      },
      async (span) => {
        const output = await activity(input);
        const outcome = outcomeOf(input, output);
        if (outcome !== undefined) {
          span.setAttributes({
            'gen_ai.response.model': outcome.responseModel,
            ...(outcome.responseId !== undefined ? { 'gen_ai.response.id': outcome.responseId } : {}),
            ...(outcome.finishReason != null ? { 'gen_ai.response.finish_reasons': [outcome.finishReason] } : {}),
            ...usageAttributes(outcome.usage),
          });
          if (outcome.content !== undefined && contentCaptured()) span.setAttribute('gen_ai.output.messages', capturedJson([{ role: 'assistant', content: outcome.content }]));
        }
        return output;
      },
    );
}

/** The `callTool` activity in an `execute_tool` span (GenAI tool execution, with the MCP attributes). */
export function tracedToolCall(activity: (input: ToolCallInput) => Promise<ToolCallOutput>): (input: ToolCallInput) => Promise<ToolCallOutput> {
  return (input) =>
    inSpan(
      `execute_tool ${input.tool}`,
      SpanKind.INTERNAL,
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': input.tool,
        'gen_ai.tool.call.id': input.toolUseId,
        'gen_ai.tool.type': 'extension',
        'mcp.method.name': 'tools/call',
        'mcp_host.server': input.server,
        ...activityAttributes(),
        ...(contentCaptured() ? { 'gen_ai.tool.call.arguments': capturedJson(input.arguments) } : {}),
      },
      async (span) => {
        const output = await activity(input);
        const outcome = output.inputRequired !== undefined ? 'input_required' : output.isError ? 'is_error' : 'ok';
        span.setAttributes({ 'mcp_host.tool.is_error': output.isError, 'mcp_host.tool.outcome': outcome });
        // The MCP conventions' error type for a result with `isError: true`.
        if (output.isError) span.setAttribute('error.type', 'tool_error');
        if (contentCaptured()) span.setAttribute('gen_ai.tool.call.result', capturedJson(output.content));
        return output;
      },
    );
}

function replyOutcome(reply: ClaudeReply): ChatOutcome {
  return { responseModel: reply.model, responseId: reply.id, finishReason: reply.stopReason, usage: reply.usage, content: reply.content };
}

/** The activities with the Claude calls and tool calls in spans; the others as they are. */
export function tracedActivities(activities: ConversationActivities): ConversationActivities {
  return {
    ...activities,
    callClaude: tracedChat(
      (input) => activities.callClaude(input),
      (input) => ({ 'gen_ai.request.max_tokens': input.maxTokens }),
      (_input, reply) => replyOutcome(reply),
    ),
    summarizeContext: tracedChat(
      (input) => activities.summarizeContext(input),
      () => ({ 'mcp_host.purpose': 'summary' }),
      (input, result) => (result.usage.input_tokens + result.usage.output_tokens > 0 ? { responseModel: input.model, usage: result.usage } : undefined),
    ),
    sampleMessage: tracedChat(
      (input) => activities.sampleMessage(input),
      () => ({ 'mcp_host.purpose': 'sampling' }),
      (input, output) => ({ responseModel: typeof output.result.model === 'string' ? output.result.model : input.model, usage: output.usage }),
    ),
    callTool: tracedToolCall((input) => activities.callTool(input)),
  };
}
