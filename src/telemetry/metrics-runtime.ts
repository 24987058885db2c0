/**
 * The metrics settings as the Temporal runtime takes them (`Runtime.install`'s
 * `telemetryOptions.metrics`), and the worker's start-up line about them. The runtime exports the
 * SDK's own worker metrics and, through its meter, the host's: one endpoint or one OTLP stream for
 * both. Durations are in seconds, as the conventions have them, the SDK's included.
 */
import type { MetricsExporterConfig } from '@temporalio/worker';
import { histogramBuckets, type MetricNaming } from './metric-names';
import type { MetricsResource, MetricsSettings } from './metrics-settings';

/** How metric and label names are written for the exporter the settings name. */
export function namingOf(settings: MetricsSettings): MetricNaming {
  return settings.exporter === 'otlp' ? 'otel' : 'prometheus';
}

/**
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` as the runtime's global tags. Its OTLP exporter
 * puts global tags into the resource (where its OpenTelemetry SDK also reads the two variables from
 * the process environment: the same values). Its Prometheus exporter reads neither variable and
 * labels the SDK's series `service_name="temporal-core-sdk"`: there the tags become labels of every
 * series, the host's and the SDK's alike (Prometheus has no resource), and with a name set the
 * runtime's own `service_name` label is left off, so that there is one.
 */
function resourceTags(settings: MetricsSettings & MetricsResource, naming: MetricNaming): Record<string, string> {
  const attributes: Record<string, string> = { ...settings.attributes, ...(settings.serviceName !== undefined ? { 'service.name': settings.serviceName } : {}) };
  // A Prometheus label name is [a-zA-Z_][a-zA-Z0-9_]*.
  const key = (name: string): string => (naming === 'prometheus' ? name.replace(/[^a-zA-Z0-9_]/g, '_') : name);
  return Object.fromEntries(Object.entries(attributes).map(([name, value]) => [key(name), value]));
}

/** The runtime's metrics exporter for `settings`; undefined when metrics are off. */
export function runtimeMetricsConfig(settings: MetricsSettings): MetricsExporterConfig | undefined {
  if (settings.exporter === 'none') return undefined;
  const tags = resourceTags(settings, namingOf(settings));
  const common = {
    ...(Object.keys(tags).length > 0 ? { globalTags: tags } : {}),
    ...(settings.serviceName !== undefined ? { attachServiceName: false } : {}),
  };
  switch (settings.exporter) {
    case 'prometheus':
      return {
        prometheus: {
          bindAddress: settings.bindAddress,
          useSecondsForDurations: true,
          histogramBucketOverrides: histogramBuckets('prometheus'),
        },
        ...common,
      };
    case 'otlp':
      return {
        otel: {
          url: settings.url,
          http: settings.protocol === 'http/protobuf',
          headers: settings.headers,
          metricsExportInterval: settings.intervalMs,
          temporality: settings.temporality,
          useSecondsForDurations: true,
          histogramBucketOverrides: histogramBuckets('otel'),
        },
        ...common,
      };
    default: {
      const unreachable: never = settings;
      throw new Error(`unhandled metrics exporter ${JSON.stringify(unreachable)}`);
    }
  }
}

/** A URL without its credentials, query or fragment (they may hold a token). */
export function shownUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return '(an invalid URL)';
  }
}

/** The start-up line: where metrics go; never a header value or a URL's credentials. */
export function describeMetrics(settings: MetricsSettings): string {
  switch (settings.exporter) {
    case 'none':
      return 'Metrics: off (OTEL_METRICS_EXPORTER=prometheus or otlp turns them on)';
    case 'prometheus':
      return `Metrics: Prometheus endpoint http://${settings.bindAddress}/metrics (Temporal SDK and host metrics)`;
    case 'otlp': {
      const headers = Object.keys(settings.headers).length;
      const sent = headers > 0 ? `, ${headers} header${headers === 1 ? '' : 's'} (values not shown)` : '';
      return `Metrics: OTLP ${settings.protocol} to ${shownUrl(settings.url)} every ${settings.intervalMs / 1000} s${sent} (Temporal SDK and host metrics)`;
    }
    default: {
      const unreachable: never = settings;
      throw new Error(`unhandled metrics exporter ${JSON.stringify(unreachable)}`);
    }
  }
}
