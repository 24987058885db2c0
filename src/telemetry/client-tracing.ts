/**
 * The client side of a trace: Temporal's workflow client interceptor, which opens a span for each
 * start, signal and update and carries its context in the call's headers to the workflow (where a
 * turn's span goes under it: src/workflows/turn-trace.ts). Queries and describes are left out: the
 * followers of a turn poll them several times a second, and a root trace per poll would bury the
 * turns. Added only when tracing is installed in the process (tracing.ts).
 */
import type { ClientInterceptors, DescribeWorkflowExecutionResponse, Next, WorkflowClientInterceptor, WorkflowDescribeInput, WorkflowQueryInput } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { currentTracing } from './tracing';

/** Temporal's client interceptor without spans for queries and describes. */
class ClientInterceptorWithoutPolls extends OpenTelemetryWorkflowClientInterceptor {
  override query(input: WorkflowQueryInput, next: Next<WorkflowClientInterceptor, 'query'>): Promise<unknown> {
    return next(input);
  }

  override describe(input: WorkflowDescribeInput, next: Next<WorkflowClientInterceptor, 'describe'>): Promise<DescribeWorkflowExecutionResponse> {
    return next(input);
  }
}

/** The client interceptors for this process's tracing: none when it is off. */
export function tracingClientInterceptors(): ClientInterceptors | undefined {
  return currentTracing() !== undefined ? { workflow: [new ClientInterceptorWithoutPolls()] } : undefined;
}
