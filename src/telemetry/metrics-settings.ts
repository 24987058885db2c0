/**
 * Whether and where the worker exports metrics, read from the standard OpenTelemetry environment
 * variables (nothing of the host's own to learn). Off unless one of them asks:
 *
 * - `OTEL_METRICS_EXPORTER`: `prometheus` (an endpoint on the worker, `OTEL_EXPORTER_PROMETHEUS_HOST`
 *   / `OTEL_EXPORTER_PROMETHEUS_PORT`, default localhost:9464), `otlp`, or `none`. Unset, an OTLP
 *   endpoint variable turns `otlp` on (the specification's default exporter); with none set, off.
 * - `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` (as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (the base:
 *   `/v1/metrics` is added for HTTP), `OTEL_EXPORTER_OTLP[_METRICS]_PROTOCOL` (`http/protobuf`, the
 *   default, or `grpc`), `OTEL_EXPORTER_OTLP[_METRICS]_HEADERS` (secret: kept out of every log line),
 *   `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE`, `OTEL_METRIC_EXPORT_INTERVAL`.
 * - `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`; `OTEL_SDK_DISABLED=true` turns it all off.
 *
 * A value the worker cannot honour is refused by name ({@link OtelSettingError}), never
 * silently replaced. Pure: reads only the `env` it is given.
 */

/** The exporter's port when `OTEL_EXPORTER_PROMETHEUS_PORT` is unset (the specification's). */
export const DEFAULT_PROMETHEUS_PORT = 9464;
/** The specification's default of `OTEL_METRIC_EXPORT_INTERVAL`: how often OTLP pushes, and how often the gauges are counted. */
export const DEFAULT_EXPORT_INTERVAL_MS = 60_000;

/** An OpenTelemetry variable (metrics or traces) with a value the host cannot use: the message names the variable. */
export class OtelSettingError extends Error {
  override readonly name = 'OtelSettingError';

  /**
   * @param variable The environment variable at fault.
   * @param problem What is wrong with its value (never the value itself when it may be secret).
   */
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

/** The name the library first exported {@link OtelSettingError} under, when only metrics read the variables. */
export const MetricsSettingError = OtelSettingError;
/** See {@link OtelSettingError}. */
export type MetricsSettingError = OtelSettingError;

/** What the service calls itself, as OpenTelemetry resources say it. */
export interface MetricsResource {
  /** `OTEL_SERVICE_NAME`, else `service.name` of `OTEL_RESOURCE_ATTRIBUTES`; undefined: the runtime's default. */
  serviceName: string | undefined;
  /** `OTEL_RESOURCE_ATTRIBUTES`, parsed (`key=value,…`, values percent-decoded). */
  attributes: Record<string, string>;
}

/** The metrics settings: off, a Prometheus endpoint, or an OTLP exporter. */
export type MetricsSettings =
  | { exporter: 'none' }
  | ({ exporter: 'prometheus'; bindAddress: string; intervalMs: number } & MetricsResource)
  | ({
      exporter: 'otlp';
      url: string;
      protocol: 'grpc' | 'http/protobuf';
      /** Sent with every export (authentication): secret, never printed. */
      headers: Record<string, string>;
      temporality: 'cumulative' | 'delta';
      intervalMs: number;
    } & MetricsResource);

export function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** `key=value,key2=value2`, percent-decoded, as the OTLP headers and resource attribute variables are written. */
export function parseKeyValueList(variable: string, raw: string | undefined, secret: boolean): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of (raw ?? '').split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    // A secret list's entry is not quoted back: it may be a token pasted without its key.
    if (eq <= 0) throw new OtelSettingError(variable, secret ? 'an entry is not key=value' : `"${item.trim()}" is not key=value`);
    try {
      pairs[decodeURIComponent(item.slice(0, eq).trim())] = decodeURIComponent(item.slice(eq + 1).trim());
    } catch {
      throw new OtelSettingError(variable, 'an entry is not valid percent-encoding');
    }
  }
  return pairs;
}

/** The exporters `OTEL_METRICS_EXPORTER` names, or the default when it is unset. */
function exporterOf(env: NodeJS.ProcessEnv): 'none' | 'prometheus' | 'otlp' {
  const raw = nonEmpty(env.OTEL_METRICS_EXPORTER);
  if (raw === undefined) {
    const endpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
    return endpoint !== undefined ? 'otlp' : 'none';
  }
  const names = [...new Set(raw.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== ''))];
  if (names.includes('none')) return 'none';
  for (const name of names) {
    if (name !== 'prometheus' && name !== 'otlp') {
      throw new OtelSettingError('OTEL_METRICS_EXPORTER', `"${name}" is not supported here (prometheus, otlp or none)`);
    }
  }
  if (names.length > 1) {
    // The Temporal runtime that exports the SDK's metrics and the host's has one exporter.
    throw new OtelSettingError('OTEL_METRICS_EXPORTER', 'choose one of prometheus and otlp (the worker has one metrics exporter; a collector can scrape or receive and forward to both)');
  }
  return names[0] === 'prometheus' ? 'prometheus' : 'otlp';
}

/** `OTEL_METRIC_EXPORT_INTERVAL`: a whole number of milliseconds, at least 100 (default 60 s). */
export function exportIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = nonEmpty(env.OTEL_METRIC_EXPORT_INTERVAL);
  if (raw === undefined) return DEFAULT_EXPORT_INTERVAL_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100) throw new OtelSettingError('OTEL_METRIC_EXPORT_INTERVAL', `must be a whole number of milliseconds, at least 100, got "${raw}"`);
  return ms;
}

/** `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`, as every signal reads them. */
export function resourceOf(env: NodeJS.ProcessEnv): MetricsResource {
  const attributes = parseKeyValueList('OTEL_RESOURCE_ATTRIBUTES', env.OTEL_RESOURCE_ATTRIBUTES, false);
  return { serviceName: nonEmpty(env.OTEL_SERVICE_NAME) ?? nonEmpty(attributes['service.name']), attributes };
}

/** `host:port` for the runtime's Prometheus server, which binds an IP address (not a name it would resolve). */
function prometheusBindAddress(env: NodeJS.ProcessEnv): string {
  const rawHost = nonEmpty(env.OTEL_EXPORTER_PROMETHEUS_HOST) ?? 'localhost';
  const rawPort = nonEmpty(env.OTEL_EXPORTER_PROMETHEUS_PORT);
  const port = rawPort === undefined ? DEFAULT_PROMETHEUS_PORT : Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new OtelSettingError('OTEL_EXPORTER_PROMETHEUS_PORT', `must be a port number, got "${rawPort ?? ''}"`);
  const host = rawHost === 'localhost' ? '127.0.0.1' : rawHost.replace(/^\[(.*)\]$/, '$1');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return `${host}:${port}`;
  if (host.includes(':')) return `[${host}]:${port}`;
  throw new OtelSettingError('OTEL_EXPORTER_PROMETHEUS_HOST', `must be an IP address to listen on (0.0.0.0 for every interface) or localhost, got "${rawHost}"`);
}

function protocolOf(env: NodeJS.ProcessEnv): 'grpc' | 'http/protobuf' {
  const variable = nonEmpty(env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL) !== undefined ? 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = nonEmpty(env[variable]) ?? 'http/protobuf';
  if (raw === 'grpc' || raw === 'http/protobuf') return raw;
  throw new OtelSettingError(variable, `"${raw}" is not supported here (http/protobuf or grpc)`);
}

/** A URL of the scheme an OTLP exporter speaks; the message never quotes it (it may hold credentials). */
export function checkedUrl(variable: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OtelSettingError(variable, 'is not a URL');
  }
  if (!['http:', 'https:', 'grpc:', 'grpcs:'].includes(url.protocol)) throw new OtelSettingError(variable, `the scheme must be http, https, grpc or grpcs, not ${url.protocol}`);
  return raw;
}

/** Where OTLP metrics go: the metrics endpoint as is; the general one as a base (HTTP: plus `v1/metrics`). */
function otlpUrl(env: NodeJS.ProcessEnv, protocol: 'grpc' | 'http/protobuf'): string {
  const own = nonEmpty(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
  if (own !== undefined) return checkedUrl('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', own);
  const base = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base === undefined) return protocol === 'grpc' ? 'http://localhost:4317' : 'http://localhost:4318/v1/metrics';
  checkedUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base);
  if (protocol === 'grpc') return base;
  // The signal's path goes after the base's own path (its query, if any, kept).
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/metrics`;
  return url.toString();
}

function temporalityOf(env: NodeJS.ProcessEnv): 'cumulative' | 'delta' {
  const raw = nonEmpty(env.OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE)?.toLowerCase() ?? 'cumulative';
  // `lowmemory` is delta for the synchronous counters and histograms, which is what the host records.
  if (raw === 'cumulative') return 'cumulative';
  if (raw === 'delta' || raw === 'lowmemory') return 'delta';
  throw new OtelSettingError('OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE', `"${raw}" is not cumulative, delta or lowmemory`);
}

/** Reads the metrics settings from `env` (default: the process environment). */
export function readMetricsSettings(env: NodeJS.ProcessEnv = process.env): MetricsSettings {
  if (nonEmpty(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return { exporter: 'none' };
  const exporter = exporterOf(env);
  if (exporter === 'none') return { exporter };
  const resource = resourceOf(env);
  const intervalMs = exportIntervalMs(env);
  if (exporter === 'prometheus') return { exporter, bindAddress: prometheusBindAddress(env), intervalMs, ...resource };
  const protocol = protocolOf(env);
  return {
    exporter,
    url: otlpUrl(env, protocol),
    protocol,
    // The metrics' own headers win over the general ones of the same name.
    headers: {
      ...parseKeyValueList('OTEL_EXPORTER_OTLP_HEADERS', env.OTEL_EXPORTER_OTLP_HEADERS, true),
      ...parseKeyValueList('OTEL_EXPORTER_OTLP_METRICS_HEADERS', env.OTEL_EXPORTER_OTLP_METRICS_HEADERS, true),
    },
    temporality: temporalityOf(env),
    intervalMs,
    ...resource,
  };
}
