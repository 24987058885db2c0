/**
 * What a design asks of the Temporal server: the dev server's own count of requests per gRPC
 * operation (Prometheus `service_requests`, frontend only, so each client or worker call counts
 * once), read before and after a batch. The server is what saturates first on this machine, so
 * the host's requests per conversation against the floor's say where its extra latency comes from.
 */

import { labelOf, metricLines } from './prometheus-text';

/** Requests per frontend operation, as counted since the server started. */
export type RequestCounts = Map<string, number>;

const LINE = /^service_requests\{([^}]*)\}\s+([0-9.e+]+)$/;

/** The frontend's request counts by operation, read from the server's metrics endpoint. */
export async function serverRequests(metricsUrl: string): Promise<RequestCounts> {
  const counts: RequestCounts = new Map();
  for (const line of await metricLines(metricsUrl)) {
    const match = LINE.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    if (labelOf(match[1], 'service_name') !== 'frontend') continue;
    const operation = labelOf(match[1], 'operation') ?? '?';
    counts.set(operation, (counts.get(operation) ?? 0) + Number(match[2]));
  }
  return counts;
}

/** The requests made between two readings, by operation, largest first. */
export function requestsBetween(before: RequestCounts, after: RequestCounts): Array<[string, number]> {
  return [...after]
    .map(([operation, count]): [string, number] => [operation, count - (before.get(operation) ?? 0)])
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
}
