/**
 * What a worker adds for tracing: Temporal's activity interceptors, which open each activity
 * attempt's span under the span the workflow scheduled it from (carried in its headers), and the
 * `exporter` sink through which the workflow's spans leave the sandbox (src/workflows/tracing-interceptors.ts).
 * Temporal's sink copies the whole workflow info onto every workflow span, memo and search
 * attributes included: the memo holds the conversation's last answer, content that must stay out of
 * spans. The sink here hands it only the identifying fields ({@link WORKFLOW_SPAN_ATTRIBUTES}).
 * With tracing off, only a sink that drops those spans (every bundle carries the workflow
 * interceptors, and a workflow calling a sink the worker lacks would log an error each time).
 */
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow';
import { currentTracing } from './tracing';

/** The tracing part of a worker's options. */
export interface WorkerTracingOptions {
  sinks: InjectedSinks<OpenTelemetrySinks>;
  activityInterceptors: ActivityInterceptorsFactory[];
}

/** The workflow info fields a workflow span carries: which workflow, run and attempt, never its memo or search attributes. */
export const WORKFLOW_SPAN_ATTRIBUTES = ['namespace', 'taskQueue', 'workflowId', 'runId', 'workflowType', 'attempt'] as const satisfies ReadonlyArray<keyof WorkflowInfo>;

/** `info` with only {@link WORKFLOW_SPAN_ATTRIBUTES}. */
export function spanWorthyInfo(info: WorkflowInfo): WorkflowInfo {
  return Object.fromEntries(WORKFLOW_SPAN_ATTRIBUTES.map((key) => [key, info[key]])) as unknown as WorkflowInfo;
}

/** The workflow's spans, dropped: tracing is off in this worker. */
const droppedSpans: InjectedSinks<OpenTelemetrySinks> = { exporter: { export: { fn: () => undefined } } };

/** The options for this process's tracing (currentTracing()), read when the worker is created. */
export function workerTracingOptions(): WorkerTracingOptions {
  const tracing = currentTracing();
  if (tracing === undefined) return { sinks: droppedSpans, activityInterceptors: [] };
  // Loaded only when tracing is on: a worker's start stays as quick as before otherwise.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on
  const otel = require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  const exporter = otel.makeWorkflowExporter(tracing.spanProcessor, tracing.resource);
  return {
    sinks: { exporter: { export: { ...exporter.export, fn: (info, spans) => exporter.export.fn(spanWorthyInfo(info), spans) } } },
    activityInterceptors: [
      (ctx) => ({
        inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
  };
}
