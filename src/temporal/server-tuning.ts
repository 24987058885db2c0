/**
 * The Temporal server settings (dynamic config) that the project's own servers run with: the dev
 * server of `npm start`, of the tests, the benchmarks and the fault suite, and the cluster of
 * docker-compose.yml and `npm run test:cluster`. Two settings:
 *
 * - **Failover speed.** `history.timerProcessorMaxTimeShift` (default 1 s) is how far ahead of now
 *   the history service's timer queue may already have read; a timer created to fire sooner than
 *   that is moved to fire then. Every activity retry is such a timer, so by default a retry after a
 *   lost worker starts at least a second after the heartbeat timeout, whatever the retry policy's
 *   first interval (measured with bench/failover.ts: the retried attempt started 4.0 s after the
 *   last heartbeat of a 3 s heartbeat timeout with a 0.5 s first interval; with this setting and
 *   the 0.1 s interval, 3.1 s). At 100 ms the timer queue reads its table more often when timers
 *   are near.
 * - **Latency per step.** `history.transferProcessorMaxPollRPS` (default 20) caps how often a
 *   history shard's transfer queue, which hands every new workflow task and every activity not
 *   dispatched eagerly to matching, reads its table: at most once per 50 ms. A conversation's steps
 *   follow one another, so past a short burst each waited for the next read: 44-46 ms between a
 *   task's scheduling and its start, for every workflow task (measured: a workflow of sequential
 *   empty activities, 204 ms per model-and-tool round; 35 ms at 200; `npm run bench`'s per-round
 *   figures were bimodal, 20 or 100 ms, by whether the shard's budget was spent). At 200 the
 *   queue reads at most every 5 ms.
 *
 * Both cost a dev server or a small cluster nothing measurable (`npm run bench`'s throughput
 * section runs with them); a large cluster's operators decide them for themselves (docs/docker.md).
 */

/** One dynamic config value. */
export interface ServerSetting {
  key: string;
  /** As the server's dynamic config takes it: a duration string, a number. */
  value: string | number;
}

/** The settings, in one place: see the module comment. */
export const SERVER_TUNING: readonly ServerSetting[] = [
  { key: 'history.timerProcessorMaxTimeShift', value: '100ms' },
  { key: 'history.transferProcessorMaxPollRPS', value: 200 },
];

/** `temporal server start-dev` arguments that apply {@link SERVER_TUNING}. */
export function devServerTuningArgs(): string[] {
  return SERVER_TUNING.flatMap(({ key, value }) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]);
}

/** {@link SERVER_TUNING} as lines of a dynamic config YAML file. */
export function serverTuningYaml(): string[] {
  return SERVER_TUNING.flatMap(({ key, value }) => [`${key}:`, `  - value: ${value}`, '    constraints: {}']);
}
