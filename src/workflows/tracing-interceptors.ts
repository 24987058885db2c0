/**
 * The workflow interceptors every bundle of these workflows carries (src/worker/workflow-bundle.ts):
 * Temporal's OpenTelemetry ones, so that a trace crosses from the client through the workflow to its
 * activities, and on through continue-as-new. Their spans leave the sandbox through the `exporter`
 * sink, which the SDK does not call during replay: a replayed run exports no span twice, and as span
 * ids come from the workflow's seeded random numbers, a span re-created by a replay has the id its
 * first run gave it. A worker without tracing installs a sink that drops them.
 *
 * A conversation is traced from the first call that brings a trace: a start, signal or update whose
 * headers carry one (a client with tracing on: src/telemetry/client-tracing.ts). Until then these
 * interceptors pass everything through, so that with tracing off a conversation's history carries no
 * trace header (a few hundred bytes a round) and its workflow tasks make no span. The decision is
 * read from the history's own headers, the same on every replay. Queries never make a span: `status`
 * and followers poll them.
 */
import type {
  ActivityInput,
  ContinueAsNewInput,
  GetLogAttributesInput,
  LocalActivityInput,
  Next,
  QueryInput,
  SignalInput,
  SignalWorkflowInput,
  StartChildWorkflowExecutionInput,
  UpdateInput,
  WorkflowExecuteInput,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';

/** The header Temporal's OpenTelemetry interceptors carry a trace context in. */
const TRACE_HEADER = '_tracer-data';

/** Whether this workflow run is traced: set by the first inbound call that brings a trace. */
interface TraceState {
  traced: boolean;
}

function bringsTrace(state: TraceState, headers: Record<string, unknown>): boolean {
  if (headers[TRACE_HEADER] === undefined) return false;
  state.traced = true;
  return true;
}

/** Temporal's inbound interceptor for the calls that bring a trace; the others as they are. */
class TracedInbound implements WorkflowInboundCallsInterceptor {
  private readonly otel = new OpenTelemetryInboundInterceptor();

  constructor(private readonly state: TraceState) {}

  execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    return bringsTrace(this.state, input.headers) ? this.otel.execute(input, next) : next(input);
  }

  handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>): Promise<void> {
    return bringsTrace(this.state, input.headers) ? this.otel.handleSignal(input, next) : next(input);
  }

  handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>): Promise<unknown> {
    return bringsTrace(this.state, input.headers) ? this.otel.handleUpdate(input, next) : next(input);
  }

  validateUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'validateUpdate'>): void {
    // A validator decides nothing about tracing: its update's handler does, if it runs.
    if (input.headers[TRACE_HEADER] !== undefined) this.otel.validateUpdate(input, next);
    else next(input);
  }

  handleQuery(input: QueryInput, next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>): Promise<unknown> {
    return next(input);
  }
}

/** Temporal's outbound interceptor once the run is traced; before, everything as it is. */
class TracedOutbound implements WorkflowOutboundCallsInterceptor {
  private readonly otel = new OpenTelemetryOutboundInterceptor();

  constructor(private readonly state: TraceState) {}

  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>): Promise<unknown> {
    return this.state.traced ? this.otel.scheduleActivity(input, next) : next(input);
  }

  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>): Promise<unknown> {
    return this.state.traced ? this.otel.scheduleLocalActivity(input, next) : next(input);
  }

  startChildWorkflowExecution(
    input: StartChildWorkflowExecutionInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ): Promise<[Promise<string>, Promise<unknown>]> {
    return this.state.traced ? this.otel.startChildWorkflowExecution(input, next) : next(input);
  }

  continueAsNew(input: ContinueAsNewInput, next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>): Promise<never> {
    return this.state.traced ? this.otel.continueAsNew(input, next) : next(input);
  }

  signalWorkflow(input: SignalWorkflowInput, next: Next<WorkflowOutboundCallsInterceptor, 'signalWorkflow'>): Promise<void> {
    return this.state.traced ? this.otel.signalWorkflow(input, next) : next(input);
  }

  getLogAttributes(input: GetLogAttributesInput, next: Next<WorkflowOutboundCallsInterceptor, 'getLogAttributes'>): Record<string, unknown> {
    return this.state.traced ? this.otel.getLogAttributes(input, next) : next(input);
  }
}

/** The SDK calls this once per workflow: each run has its own trace state. */
export const interceptors = (): WorkflowInterceptors => {
  const state: TraceState = { traced: false };
  return {
    inbound: [new TracedInbound(state)],
    outbound: [new TracedOutbound(state)],
    internals: [new OpenTelemetryInternalsInterceptor()],
  };
};
