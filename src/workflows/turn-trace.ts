/**
 * A turn's span, in the workflow: one trace per turn, under the client call that sent it. The signal
 * or update handler notes the trace context it ran in (Temporal's interceptor opened it from the
 * client's headers: the sender's); the main loop runs the turn inside an `invoke_agent` span under
 * that context, and every activity the turn schedules (Claude calls, tool calls) nests below it.
 *
 * The context rides with the pending turn as its W3C `traceparent`/`tracestate`, so it survives
 * continue-as-new with the turn. Replay-safe as Temporal's own spans are (tracing-interceptors.ts):
 * ids come from the workflow's seeded random numbers, times from workflow time, and the span leaves
 * through a sink the SDK skips during replay. An untraced conversation has no carrier and no span.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { workflowInfo } from '@temporalio/workflow';
import type { PendingTurn, TurnResult } from '../conversation/types';

/** The W3C trace-context fields of a turn's sender (`traceparent`, and `tracestate` when set). */
export type TraceCarrier = Record<string, string>;

/** The agent name turn spans carry (`gen_ai.agent.name`). */
export const AGENT_NAME = 'durable-mcp-host';

/** The trace context the current handler runs in, to be kept with the turn it enqueues. */
export function senderTraceContext(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent !== undefined ? carrier : undefined;
}

/**
 * Runs `run` (the turn) inside its span: a child of the turn's sender when it has one, else of
 * whatever is active (the workflow's run). The span ends with the turn's status.
 */
export async function inTurnSpan(turn: PendingTurn, model: string, run: () => Promise<TurnResult>): Promise<TurnResult> {
  // An untraced conversation (src/workflows/tracing-interceptors.ts): no sender's trace, none running.
  if (turn.trace === undefined && trace.getSpan(context.active()) === undefined) return run();
  const tracer = trace.getTracer(AGENT_NAME);
  const parent = turn.trace !== undefined ? propagation.extract(ROOT_CONTEXT, turn.trace) : context.active();
  const attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': AGENT_NAME,
    'gen_ai.conversation.id': workflowInfo().workflowId,
    'gen_ai.request.model': model,
    'mcp_host.turn.id': turn.turnId,
  };
  return tracer.startActiveSpan(`invoke_agent ${AGENT_NAME}`, { kind: SpanKind.INTERNAL, attributes }, parent, async (span) => {
    try {
      const result = await run();
      span.setAttributes({ 'mcp_host.turn.status': result.status, 'mcp_host.turn.model_calls': result.modelCalls, 'mcp_host.turn.tool_calls': result.toolCalls });
      if (result.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: 'the turn failed' });
      return result;
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}
