/**
 * The workflow interceptors every bundle of these workflows carries (src/worker/workflow-bundle.ts):
 * Temporal's OpenTelemetry ones, so that a trace crosses from the client through the workflow to its
 * activities, and on through continue-as-new. Their spans leave the sandbox through the `exporter`
 * sink, which the SDK does not call during replay: a replayed run exports no span twice, and as span
 * ids come from the workflow's seeded random numbers, a span re-created by a replay has the id its
 * first run gave it. A worker without tracing installs a sink that drops them.
 *
 * Queries are left out: `status` and `follow` poll them, and a span per poll would bury the turns.
 */
import type { Next, QueryInput, WorkflowInboundCallsInterceptor, WorkflowInterceptors } from '@temporalio/workflow';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';

/** Temporal's inbound interceptor, without a span per query. */
class InboundWithoutQuerySpans extends OpenTelemetryInboundInterceptor {
  override handleQuery(input: QueryInput, next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>): Promise<unknown> {
    return next(input);
  }
}

/** The SDK calls this once per workflow. */
export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new InboundWithoutQuerySpans()],
  outbound: [new OpenTelemetryOutboundInterceptor()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
