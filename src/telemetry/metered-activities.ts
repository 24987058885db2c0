/**
 * The Claude and tool activities, measured: each attempt's duration and what it ended with go to
 * {@link HostMetrics} as it returns or throws. Wrapped outermost (src/activities/index.ts), so the
 * time is the attempt's whole time in the worker and a failure is seen with its final type. Every
 * attempt is counted, a retried one too (Temporal runs it again: it is another call, and a
 * Claude call that failed used no tokens); replays never run activities. Recording never fails the
 * activity.
 */
import { CancelledFailure } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ReplyUsage } from '../claude/reply-usage';
import type { ConversationActivities, ToolCallInput, ToolCallOutput } from '../activities/types';
import type { HostMetrics } from './host-metrics';
import type { ToolOutcome } from './metric-names';

/** The failure type an attempt ended with, for `error.type`: the host's dotted types, never a message. */
export function failureTypeOf(err: unknown): string {
  if (err instanceof CancelledFailure) return 'cancelled';
  if (err instanceof ApplicationFailure && err.type) return err.type;
  // The conventions' value for an error the instrumentation cannot name.
  return '_OTHER';
}

/** Runs `record`, swallowing what it throws: a metric must never fail the call it measures. */
function safely(record: () => void): void {
  try {
    record();
  } catch {
    // Nothing to do: the value is lost, the call is not.
  }
}

/**
 * What a Claude activity's result says of the call: the model that answered and the tokens it took;
 * `requestModel` when the call asked another model than the input's (a server's sampling request);
 * undefined when the activity had nothing to ask Claude (then nothing is recorded).
 */
export type ClaudeReplyOf<I, O> = (input: I, output: O) => { model: string; usage: ReplyUsage; requestModel?: string } | undefined;

/** A Claude-calling activity (`callClaude`, `summarizeContext`, `sampleMessage`), measured. */
export function meteredClaudeCall<I extends { model: string }, O>(metrics: HostMetrics, activity: (input: I) => Promise<O>, replyOf: ClaudeReplyOf<I, O>): (input: I) => Promise<O> {
  return async (input) => {
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    let output: O;
    try {
      output = await activity(input);
    } catch (err) {
      safely(() => metrics.recordClaudeCall({ requestModel: input.model, seconds: seconds(), errorType: failureTypeOf(err) }));
      throw err;
    }
    safely(() => {
      const reply = replyOf(input, output);
      if (reply !== undefined) metrics.recordClaudeCall({ requestModel: reply.requestModel ?? input.model, responseModel: reply.model, seconds: seconds(), usage: reply.usage });
    });
    return output;
  };
}

/** What a tools/call result is, as an outcome. */
function outcomeOf(output: ToolCallOutput): ToolOutcome {
  if (output.inputRequired !== undefined) return 'input_required';
  return output.isError ? 'is_error' : 'ok';
}

/** The `callTool` activity, measured. */
export function meteredToolCall(metrics: HostMetrics, activity: (input: ToolCallInput) => Promise<ToolCallOutput>): (input: ToolCallInput) => Promise<ToolCallOutput> {
  return async (input) => {
    const started = performance.now();
    const record = (outcome: ToolOutcome, errorType?: string): void =>
      safely(() =>
        metrics.recordToolCall({
          server: input.server,
          tool: input.tool,
          seconds: (performance.now() - started) / 1000,
          outcome,
          ...(errorType !== undefined ? { errorType } : {}),
        }),
      );
    let output: ToolCallOutput;
    try {
      output = await activity(input);
    } catch (err) {
      record('failed', failureTypeOf(err));
      throw err;
    }
    const outcome = outcomeOf(output);
    record(outcome, outcome === 'is_error' ? 'tool_error' : undefined);
    return output;
  };
}

/**
 * The activities with the Claude-calling ones and `callTool` measured; the others as they are.
 * `countTokens` is free and makes no model call; the host's resource tools are not MCP `tools/call`.
 */
export function meteredActivities(metrics: HostMetrics, activities: ConversationActivities): ConversationActivities {
  return {
    ...activities,
    callClaude: meteredClaudeCall(metrics, (input) => activities.callClaude(input), (_input, reply) => reply),
    // A summary with nothing new to fold in made no call.
    summarizeContext: meteredClaudeCall(
      metrics,
      (input) => activities.summarizeContext(input),
      (input, result) => (result.usage.input_tokens + result.usage.output_tokens > 0 ? { model: input.model, usage: result.usage } : undefined),
    ),
    // A server's sampling runs on the model its preferences chose: the result names it.
    sampleMessage: meteredClaudeCall(
      metrics,
      (input) => activities.sampleMessage(input),
      (input, output) => {
        const model = typeof output.result.model === 'string' ? output.result.model : input.model;
        return { model, requestModel: model, usage: output.usage };
      },
    ),
    callTool: meteredToolCall(metrics, (input) => activities.callTool(input)),
  };
}
