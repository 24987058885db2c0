/**
 * Scenario: the server side of faults, on the PostgreSQL-backed cluster (scripts/cluster/), with a
 * steady workload of conversations in the middle of tool rounds on two worker processes:
 * - `kill -9` of the Temporal server process during tool calls, then a start on the same config;
 * - PostgreSQL restarted under the running server (`pg_ctl restart -m fast`, then `kill -9` of the
 *   postmaster and a start with crash recovery);
 * - one worker cut off from the frontend for 30 s by a TCP relay of the suite's own, then let back
 *   in; the other worker keeps running, and the cut-off one must rejoin by itself.
 *
 * The scenario starts a cluster of its own rather than using the runner's dev server: the faults
 * are the cluster's (its server process, its PostgreSQL), and a dev server is one process with
 * SQLite, which has neither. It runs alone in the plan because two of its faults stop the whole
 * server under its workload, and its timings are worth little on a machine busy with other scenarios.
 */
import * as fs from 'node:fs';
import { median } from '../../bench/median';
import { startCluster, type Cluster } from '../../scripts/cluster/cluster';
import type { PostgresRestartMode } from '../../scripts/cluster/postgres';
import { faultResult, outcomeOf, type FaultResult } from '../report/fault-result';
import type { ChaosScenario, ScenarioContext } from '../scenario';
import { describeImpact, faultImpact, type FaultMoment } from '../support/fault-impact';
import { waitForAim } from '../support/kill-aims';
import { pauseWithin } from '../support/pause';
import { startScenarioRig, type ScenarioRig } from '../support/scenario-rig';
import { total, workflowTaskTimeouts, workloadUnderFaults } from '../support/under-faults';
import { cutOffWorker } from '../support/worker-cut-off';

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const spread = (values: readonly number[]): string => (values.length === 0 ? 'none' : `median ${s(median(values))}, max ${s(Math.max(...values))}`);

/** The scenario's context with the cluster in place of the runner's dev server. */
function onCluster(context: ScenarioContext, cluster: Cluster): ScenarioContext {
  return {
    ...context,
    temporal: {
      address: cluster.address,
      cliPath: context.temporal.cliPath,
      pid: () => cluster.serverPid,
      restart: async () => {
        await cluster.killServer();
        await cluster.startServer();
      },
      stop: () => cluster.stop(),
    },
  };
}

/** A rig with two workers on the cluster, and its workload. */
async function twoWorkerRig(context: ScenarioContext, tag: string): Promise<{ rig: ScenarioRig; workload: ReturnType<ScenarioRig['workload']> }> {
  const rig = await startScenarioRig(context, tag);
  try {
    await rig.fleet.spawn();
  } catch (err) {
    await rig.close();
    throw err;
  }
  return { rig, workload: rig.workload({ conversationOptions: { continueAsNewAfterEvents: context.profile.continueAsNewAfterEvents } }) };
}

const LABELS: Record<PostgresRestartMode, string> = {
  fast: 'pg_ctl restart -m fast',
  kill: 'kill -9 of the postmaster, then start',
};

async function serverKill(context: ScenarioContext, cluster: Cluster): Promise<FaultResult> {
  const { serverKills, pauseMs } = context.profile.cluster;
  const result = faultResult('cluster-faults', 'cluster: kill -9 of the Temporal server process during tool calls, then a start on the same config and PostgreSQL');
  const { rig, workload } = await twoWorkerRig(context, 'srvkill');
  const downtimes: number[] = [];
  const { verdicts, impact } = await workloadUnderFaults(rig, workload, result, async () => {
    const moments: FaultMoment[] = [];
    for (let i = 0; i < serverKills; i++) {
      await pauseWithin(pauseMs);
      const seen = await waitForAim('tool call', { model: rig.model, fleet: rig.fleet, workload }, 5000);
      const pid = cluster.serverPid;
      const at = Date.now();
      await cluster.killServer();
      // The fault ends when the new process starts: at once, once the killed one has exited.
      const restartAt = Date.now();
      await cluster.startServer();
      const upAt = Date.now();
      downtimes.push(upAt - at);
      moments.push({ at, endedAt: restartAt, progressed: () => true });
      context.log(`  server kill ${i + 1}/${serverKills} (pid ${pid}${seen ? ', tool calls in flight' : ', no tool call seen in time'}): serving again after ${s(upAt - at)}`);
    }
    await pauseWithin(pauseMs);
    return moments;
  });
  result.details.unshift(
    `${serverKills === 1 ? '1 kill, followed' : `${serverKills} kills, each followed`} at once by a new server process; recovery is timed from the kill; ` +
      `from the new process's start to each caught conversation's next workflow task: ${spread(impact.afterEndMs)}; ` +
      `the start script saw the new process serve (its four services in the ring, \`default\` answering; polled every 0.5 s, so an upper bound) ${spread(downtimes)} after the kill`,
  );
  result.details.push(
    `${total(verdicts, (v) => v.conversation.turns.length)} turns on two workers; history: ${total(verdicts, (v) => v.facts.activityRetries)} activity retries, ${workflowTaskTimeouts(verdicts)}`,
  );
  return result;
}

async function postgresRestarts(context: ScenarioContext, cluster: Cluster): Promise<FaultResult> {
  const { postgresRestarts: modes, pauseMs } = context.profile.cluster;
  const kinds = [...new Set(modes)].map((m) => `${LABELS[m]}${modes.filter((n) => n === m).length > 1 ? ` ×${modes.filter((n) => n === m).length}` : ''}`);
  const result = faultResult('cluster-faults', `cluster: PostgreSQL restarted under the running server (${kinds.join('; ')})`);
  const { rig, workload } = await twoWorkerRig(context, 'pgrestart');
  const restarts: Array<{ mode: PostgresRestartMode; moment: FaultMoment }> = [];
  const { verdicts } = await workloadUnderFaults(rig, workload, result, async () => {
    for (const [i, mode] of modes.entries()) {
      await pauseWithin(pauseMs);
      const seen = await waitForAim('tool call', { model: rig.model, fleet: rig.fleet, workload }, 5000);
      const at = Date.now();
      await cluster.restartPostgres(mode);
      const upAt = Date.now();
      restarts.push({ mode, moment: { at, endedAt: upAt, progressed: () => true } });
      context.log(`  postgres restart ${i + 1}/${modes.length} (${LABELS[mode]}${seen ? ', tool calls in flight' : ''}): accepting connections after ${s(upAt - at)}`);
    }
    await pauseWithin(pauseMs);
    return restarts.map((r) => r.moment);
  });
  for (const mode of new Set(modes)) {
    const moments = restarts.filter((r) => r.mode === mode).map((r) => r.moment);
    const impact = faultImpact(moments, verdicts);
    result.details.push(
      `${LABELS[mode]} ×${moments.length}: PostgreSQL down ${spread(moments.map((m) => (m.endedAt ?? m.at) - m.at))}; ` +
        `from accepting connections again to each caught conversation's next workflow task: ${spread(impact.afterEndMs)}; ${describeImpact(impact)}`,
    );
  }
  result.details.unshift('recovery is timed from the start of each restart (the Temporal server is not restarted: it reconnects to PostgreSQL by itself)');
  result.details.push(
    `${total(verdicts, (v) => v.conversation.turns.length)} turns on two workers; history: ${total(verdicts, (v) => v.facts.activityRetries)} activity retries, ${workflowTaskTimeouts(verdicts)}`,
  );
  return result;
}

async function workerCutOff(context: ScenarioContext, cluster: Cluster): Promise<FaultResult> {
  const { cutOffs, cutOffMs } = context.profile.cluster;
  const result = faultResult(
    'cluster-faults',
    `cluster: one of two workers cut off from the frontend for ${cutOffMs / 1000} s (connections dropped, new ones refused), then let back in`,
  );
  const rig = await startScenarioRig(context, 'cutoff');
  await cutOffWorker(context, rig, cluster.address, result, cutOffs);
  return result;
}

/** The scenario. */
export const clusterFaults: ChaosScenario = {
  name: 'cluster-faults',
  run: async (context) => {
    const { serverKills, postgresRestarts: modes, cutOffs } = context.profile.cluster;
    context.log(`cluster faults: ${serverKills} server kills, ${modes.length} PostgreSQL restarts, ${cutOffs} worker cut-offs`);
    const startedAt = Date.now();
    const cluster = await startCluster({ log: (line) => context.log(`  cluster: ${line}`), keepDir: true });
    context.log(`  cluster up in ${s(Date.now() - startedAt)}: ${cluster.address}, files in ${cluster.dir}`);
    const results: FaultResult[] = [];
    const onIt = onCluster(context, cluster);
    try {
      for (const fault of [serverKill, postgresRestarts, workerCutOff]) {
        try {
          results.push(await fault(onIt, cluster));
        } catch (err) {
          const failed = faultResult('cluster-faults', `cluster: ${fault.name}`);
          failed.problems.push(`the fault's run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          results.push(failed);
        }
      }
    } finally {
      await cluster.stop();
    }
    if (results.every((r) => outcomeOf(r) === 'pass')) fs.rmSync(cluster.dir, { recursive: true, force: true });
    else context.log(`  kept the cluster's folder ${cluster.dir} (server.log, pg/postgres.log)`);
    return results;
  },
};
