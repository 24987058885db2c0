/**
 * The host's metrics on the Temporal runtime's meter, so that they leave by the same exporter as the
 * SDK's own (one Prometheus endpoint, or one OTLP stream). Off (every record a no-op) when the
 * runtime exports no metrics: the worker's default, or an application's runtime installed without.
 */
import { Runtime } from '@temporalio/worker';
import { HostMetrics } from './host-metrics';

/** The host's metrics on the process's runtime (installed by now, or the SDK's default made now). */
export function hostMetricsOfRuntime(): HostMetrics {
  const runtime = Runtime.instance();
  const exporter = runtime.options.runtimeOptions.metricsExporter;
  if (exporter === null) return HostMetrics.off;
  // The runtime's Prometheus exporter drops a name with a dot; OTLP (and a buffer) keep the conventions' names.
  return new HostMetrics(runtime.metricMeter, exporter.type === 'prometheus' ? 'prometheus' : 'otel');
}
