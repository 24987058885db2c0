/**
 * The Temporal runtime's log level for the worker processes: `LOG_LEVEL` (TRACE, DEBUG, INFO,
 * WARN, ERROR), default WARN — at INFO the SDK logs every worker state change, which buries the
 * start-up lines that matter. Must run before the first worker or native connection is made.
 * The runtime's metrics exporter too, when the `OTEL_*` variables turn metrics on, and the process's
 * tracer provider when they turn traces on (src/telemetry).
 */
import { IllegalStateError } from '@temporalio/common';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { readMetricsSettings } from '../telemetry/metrics-settings';
import { runtimeMetricsConfig } from '../telemetry/metrics-runtime';
import { readTraceSettings } from '../telemetry/trace-settings';
import { installTracing } from '../telemetry/tracing';

const LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

/** The level `LOG_LEVEL` names; a value that is not a level is an error, not a silent default. */
export function logLevelFrom(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const raw = env.LOG_LEVEL?.trim().toUpperCase();
  if (raw === undefined || raw === '') return 'WARN';
  const level = LEVELS.find((l) => l === raw);
  if (level === undefined) throw new Error(`LOG_LEVEL must be one of ${LEVELS.join(', ')}, got "${env.LOG_LEVEL ?? ''}"`);
  return level;
}

/**
 * Installs the runtime with that level and the metrics exporter (once per process; later calls keep
 * the first). A malformed metrics variable, or a Prometheus port already taken, is an error.
 */
export function installRuntimeLogger(env: NodeJS.ProcessEnv = process.env): void {
  const level = logLevelFrom(env);
  const metrics = runtimeMetricsConfig(readMetricsSettings(env));
  installTracing(readTraceSettings(env));
  try {
    Runtime.install({ logger: new DefaultLogger(level), ...(metrics !== undefined ? { telemetryOptions: { metrics } } : {}) });
  } catch (err) {
    // Already installed (an application that set up its own runtime): keep theirs.
    if (!(err instanceof IllegalStateError)) throw err;
  }
}
