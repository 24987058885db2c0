/**
 * Turns ended, by status (`mcp_host_turns`), counted by the workflow through the SDK's workflow
 * metric meter: it emits nothing while a workflow replays, so a turn replayed on another worker (or
 * after a cache eviction) is not counted again, and it adds no command, so recorded histories
 * replay unchanged. Only the workflow knows a turn's status; the worker's meter carries the value out
 * with the SDK's `namespace`, `taskQueue` and `workflowType` labels.
 */
import { metricMeter } from '@temporalio/workflow';
import type { MetricCounter } from '@temporalio/common';
import type { TurnStatus } from '../conversation/types';
import { HOST_METRICS, METRIC_ATTRIBUTES } from '../telemetry/metric-names';

let turns: MetricCounter | undefined;

/** Counts one ended turn of this status. */
export function countTurn(status: TurnStatus): void {
  const metric = HOST_METRICS.turns;
  // The name and label have no dot: the workflow cannot know whether Prometheus exports them.
  turns ??= metricMeter.createCounter(metric.name, metric.unit, metric.description);
  turns.add(1, { [METRIC_ATTRIBUTES.status]: status });
}
