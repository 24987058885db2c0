/**
 * The process's OpenTelemetry tracer provider, when the `OTEL_*` variables turn traces on
 * (trace-settings.ts): the exporter they name, a batch span processor, the sampler, the resource,
 * W3C trace-context propagation and an AsyncLocalStorage context manager, registered as the global
 * provider so that Temporal's interceptors, the host's spans (traced-activities.ts) and the MCP
 * request spans (mcp-request-spans.ts) all use it. The worker, `mcp-host` and a library user who
 * calls {@link installTracing} share this one set-up. The start-up line names where spans go and
 * never a header value or a URL's credentials.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { shownUrl } from './metrics-runtime';
import { readTraceSettings, type TraceSampler, type TraceSettings } from './trace-settings';

/** The instrumentation scope of the host's own spans. */
export const HOST_TRACER = 'durable-mcp-host';

/** The service name spans carry when `OTEL_SERVICE_NAME` is unset. */
export const DEFAULT_SERVICE_NAME = 'durable-mcp-host';

/** Tracing as installed in this process. */
export interface Tracing {
  /** What the worker hands Temporal's workflow span sink (`makeWorkflowExporter`). */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Whether prompts and tool content may go into spans. */
  captureContent: boolean;
  /** Exports what is buffered; for a short-lived process before it exits. */
  flush(): Promise<void>;
  /** Exports what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

function samplerFor(sampler: TraceSampler): Sampler {
  switch (sampler.kind) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(sampler.ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(sampler.ratio) });
    default: {
      const unreachable: never = sampler;
      throw new Error(`unhandled sampler ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The exporter for `settings` (loaded only when used: the gRPC one brings a gRPC stack). */
function exporterFor(settings: Exclude<TraceSettings, { exporter: 'none' }>): SpanExporter {
  if (settings.exporter === 'console') return new ConsoleSpanExporter();
  switch (settings.protocol) {
    case 'http/protobuf': {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for the protocol asked (see exporterFor)
      const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
      return new OTLPTraceExporter({ url: settings.url, headers: settings.headers });
    }
    case 'http/json': {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for the protocol asked (see exporterFor)
      const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
      return new OTLPTraceExporter({ url: settings.url, headers: settings.headers });
    }
    case 'grpc': {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for the protocol asked (see exporterFor)
      const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-grpc') as typeof import('@opentelemetry/exporter-trace-otlp-grpc');
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for the protocol asked (see exporterFor)
      const { Metadata } = require('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
      const metadata = new Metadata();
      for (const [key, value] of Object.entries(settings.headers)) metadata.set(key, value);
      return new OTLPTraceExporter({ url: settings.url, metadata });
    }
    default: {
      const unreachable: never = settings.protocol;
      throw new Error(`unhandled trace protocol ${String(unreachable)}`);
    }
  }
}

let installed: Tracing | undefined;

/**
 * Installs tracing as `settings` say (default: the process environment), once per process; later
 * calls return the first. Undefined when traces are off: then every span the host opens is
 * OpenTelemetry's no-op, which costs next to nothing.
 */
export function installTracing(settings: TraceSettings = readTraceSettings()): Tracing | undefined {
  if (installed !== undefined || settings.exporter === 'none') return installed;
  const resource = Resource.default().merge(
    new Resource({ ...settings.attributes, 'service.name': settings.serviceName ?? DEFAULT_SERVICE_NAME }),
  );
  const spanProcessor = new BatchSpanProcessor(exporterFor(settings), { scheduledDelayMillis: 1000 });
  const provider = new BasicTracerProvider({ resource, sampler: samplerFor(settings.sampler), spanProcessors: [spanProcessor] });
  provider.register({
    contextManager: new AsyncLocalStorageContextManager(),
    propagator: new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  });
  installed = {
    spanProcessor,
    resource,
    captureContent: settings.captureContent,
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      installed = undefined;
    },
  };
  return installed;
}

/** Tracing as installed in this process, if it is. */
export function currentTracing(): Tracing | undefined {
  return installed;
}

/** The start-up line: where spans go; never a header value or a URL's credentials. */
export function describeTracing(settings: TraceSettings): string {
  if (settings.exporter === 'none') return 'Traces: off (OTEL_TRACES_EXPORTER=otlp or an OTEL_EXPORTER_OTLP_ENDPOINT turns them on)';
  const content = settings.captureContent ? 'content captured' : 'no content';
  const sampler = `sampler ${settings.sampler.kind}${'ratio' in settings.sampler ? ` ${settings.sampler.ratio}` : ''}`;
  if (settings.exporter === 'console') return `Traces: printed on stdout (${sampler}, ${content})`;
  const headers = Object.keys(settings.headers).length;
  const sent = headers > 0 ? `, ${headers} header${headers === 1 ? '' : 's'} (values not shown)` : '';
  return `Traces: OTLP ${settings.protocol} to ${shownUrl(settings.url)} (${sampler}, ${content}${sent})`;
}
