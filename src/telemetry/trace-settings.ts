/**
 * Whether and where the host exports traces, read from the standard OpenTelemetry environment
 * variables, as the metrics are (metrics-settings.ts). Off unless one of them asks:
 *
 * - `OTEL_TRACES_EXPORTER`: `otlp`, `console` (spans printed on stdout, for a first look) or `none`.
 *   Unset, an OTLP endpoint variable turns `otlp` on (the specification's default exporter).
 * - `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (as is) or `OTEL_EXPORTER_OTLP_ENDPOINT` (the base:
 *   `/v1/traces` is added for HTTP), `OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL` (`http/protobuf`, the
 *   default, `http/json` or `grpc`), `OTEL_EXPORTER_OTLP[_TRACES]_HEADERS` (secret: never printed).
 * - `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` (default `parentbased_always_on`).
 * - `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`; `OTEL_SDK_DISABLED=true` turns it all off.
 * - `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`: prompts, replies, tool arguments and
 *   results go into the spans. Off by default, as the GenAI conventions advise.
 *
 * A value the host cannot honour is refused by name ({@link OtelSettingError}). Pure: reads only the
 * `env` it is given.
 */
import { checkedUrl, nonEmpty, OtelSettingError, parseKeyValueList, resourceOf, type MetricsResource } from './metrics-settings';

/** The variable that turns content capture on, as the GenAI instrumentations name it. */
export const CAPTURE_CONTENT_VARIABLE = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

/** The OTLP encodings the trace exporter speaks. */
export type TraceProtocol = 'http/protobuf' | 'http/json' | 'grpc';

/** Which traces are kept, as `OTEL_TRACES_SAMPLER` names it. */
export type TraceSampler =
  | { kind: 'always_on' | 'always_off' | 'parentbased_always_on' | 'parentbased_always_off' }
  | { kind: 'traceidratio' | 'parentbased_traceidratio'; ratio: number };

/** What every exporting setting has. */
interface ExportingTraces extends MetricsResource {
  sampler: TraceSampler;
  /** Prompts, replies, tool arguments and results in spans (off by default). */
  captureContent: boolean;
}

/** The trace settings: off, spans printed on stdout, or an OTLP exporter. */
export type TraceSettings =
  | { exporter: 'none' }
  | ({ exporter: 'console' } & ExportingTraces)
  | ({
      exporter: 'otlp';
      url: string;
      protocol: TraceProtocol;
      /** Sent with every export (authentication): secret, never printed. */
      headers: Record<string, string>;
    } & ExportingTraces);

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

function exporterOf(env: NodeJS.ProcessEnv): 'none' | 'console' | 'otlp' {
  const raw = nonEmpty(env.OTEL_TRACES_EXPORTER);
  if (raw === undefined) {
    const endpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
    return endpoint !== undefined ? 'otlp' : 'none';
  }
  const names = [...new Set(raw.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== ''))];
  if (names.includes('none')) return 'none';
  for (const name of names) {
    if (name !== 'otlp' && name !== 'console') throw new OtelSettingError('OTEL_TRACES_EXPORTER', `"${name}" is not supported here (otlp, console or none)`);
  }
  if (names.length > 1) throw new OtelSettingError('OTEL_TRACES_EXPORTER', 'choose one of otlp and console');
  return names[0] === 'console' ? 'console' : 'otlp';
}

function protocolOf(env: NodeJS.ProcessEnv): TraceProtocol {
  const variable = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = nonEmpty(env[variable]) ?? 'http/protobuf';
  if (raw === 'http/protobuf' || raw === 'http/json' || raw === 'grpc') return raw;
  throw new OtelSettingError(variable, `"${raw}" is not supported here (http/protobuf, http/json or grpc)`);
}

/** Where OTLP traces go: the traces endpoint as is; the general one as a base (HTTP: plus `v1/traces`). */
function otlpUrl(env: NodeJS.ProcessEnv, protocol: TraceProtocol): string {
  const own = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (own !== undefined) return checkedUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', own);
  const base = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base === undefined) return protocol === 'grpc' ? 'http://localhost:4317' : 'http://localhost:4318/v1/traces';
  checkedUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base);
  if (protocol === 'grpc') return base;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url.toString();
}

function samplerOf(env: NodeJS.ProcessEnv): TraceSampler {
  const raw = nonEmpty(env.OTEL_TRACES_SAMPLER)?.toLowerCase() ?? 'parentbased_always_on';
  const kind = SAMPLERS.find((name) => name === raw);
  if (kind === undefined) throw new OtelSettingError('OTEL_TRACES_SAMPLER', `"${raw}" is not supported here (${SAMPLERS.join(', ')})`);
  if (kind !== 'traceidratio' && kind !== 'parentbased_traceidratio') return { kind };
  const arg = nonEmpty(env.OTEL_TRACES_SAMPLER_ARG);
  // The specification's default ratio is 1.
  const ratio = arg === undefined ? 1 : Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw new OtelSettingError('OTEL_TRACES_SAMPLER_ARG', `must be a ratio between 0 and 1, got "${arg ?? ''}"`);
  return { kind, ratio };
}

function captureContentOf(env: NodeJS.ProcessEnv): boolean {
  const raw = nonEmpty(env[CAPTURE_CONTENT_VARIABLE])?.toLowerCase();
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new OtelSettingError(CAPTURE_CONTENT_VARIABLE, `must be true or false, got "${raw}"`);
}

/** Reads the trace settings from `env` (default: the process environment). */
export function readTraceSettings(env: NodeJS.ProcessEnv = process.env): TraceSettings {
  if (nonEmpty(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return { exporter: 'none' };
  const exporter = exporterOf(env);
  if (exporter === 'none') return { exporter };
  const common: ExportingTraces = { ...resourceOf(env), sampler: samplerOf(env), captureContent: captureContentOf(env) };
  if (exporter === 'console') return { exporter, ...common };
  const protocol = protocolOf(env);
  return {
    exporter,
    url: otlpUrl(env, protocol),
    protocol,
    // The traces' own headers win over the general ones of the same name.
    headers: {
      ...parseKeyValueList('OTEL_EXPORTER_OTLP_HEADERS', env.OTEL_EXPORTER_OTLP_HEADERS, true),
      ...parseKeyValueList('OTEL_EXPORTER_OTLP_TRACES_HEADERS', env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, true),
    },
    ...common,
  };
}
