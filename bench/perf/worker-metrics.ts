/**
 * What a benchmark worker's own SDK measured: the Temporal core's Prometheus metrics, which each
 * worker process serves on a port of its own (`BENCH_METRICS_PORT`, durations in milliseconds).
 * The benchmark reads how long the activities' functions ran, as the worker timed them
 * (`temporal_activity_execution_latency`, and `temporal_local_activity_execution_latency` for local
 * activities), so that a design's time per round splits into its activities' own work and the rest.
 */

import { labelOf, metricLines } from './prometheus-text';

/** Per activity type (a local activity's as "TYPE (local)"): milliseconds of execution in all, and how many. */
export type ActivityExecution = Map<string, { ms: number; count: number }>;

const LINE = /^temporal_(local_)?activity_execution_latency_(sum|count)\{([^}]*)\}\s+([0-9.e+-]+)$/;

/** The execution totals so far, read from a worker's metrics endpoint. */
export async function activityExecution(metricsUrl: string): Promise<ActivityExecution> {
  const totals: ActivityExecution = new Map();
  for (const line of await metricLines(metricsUrl)) {
    const match = LINE.exec(line);
    if (!match?.[3] || match[4] === undefined) continue;
    const type = labelOf(match[3], 'activity_type') ?? '?';
    const key = match[1] ? `${type} (local)` : type;
    const entry = totals.get(key) ?? { ms: 0, count: 0 };
    if (match[2] === 'sum') entry.ms += Number(match[4]);
    else entry.count += Number(match[4]);
    totals.set(key, entry);
  }
  return totals;
}

/** What ran between two readings, per activity type. */
export function executionBetween(before: ActivityExecution, after: ActivityExecution): ActivityExecution {
  const between: ActivityExecution = new Map();
  for (const [type, { ms, count }] of after) {
    const earlier = before.get(type) ?? { ms: 0, count: 0 };
    if (count > earlier.count) between.set(type, { ms: ms - earlier.ms, count: count - earlier.count });
  }
  return between;
}

/** The `Runtime.install` telemetry option that serves these metrics on `port` (undefined: none). */
export function metricsTelemetry(port: string | undefined): { metrics: { prometheus: { bindAddress: string; useSecondsForDurations: false } } } | undefined {
  return port ? { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}`, useSecondsForDurations: false } } } : undefined;
}
