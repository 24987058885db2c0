/**
 * Scenario 1: `kill -9` of the worker's process group (the worker and its MCP server) at aimed
 * random moments, over many multi-turn, multi-tool conversations with parallel tool calls, slowish
 * tools and model, and continue-as-new every few dozen events. A new worker starts at once after
 * each kill. Run once per kill cadence of the profile.
 */
import { median } from '../../bench/median';
import type { KillCadence } from '../profiles';
import { faultResult, type FaultResult } from '../report/fault-result';
import type { ChaosScenario, ScenarioContext } from '../scenario';
import type { FaultMoment } from '../support/fault-impact';
import { KILL_AIMS, waitForAim, type KillAim } from '../support/kill-aims';
import { pauseWithin } from '../support/pause';
import { identityPid } from '../support/run-histories';
import { startScenarioRig } from '../support/scenario-rig';
import { describeWorkflowTasks, total, workflowTaskTimeouts, workloadUnderFaults } from '../support/under-faults';

/** How long a kill waits for its aimed moment before it fires anyway. */
const AIM_TIMEOUT_MS = 5000;

function count(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, n]) => `${value} ×${n}`).join(', ');
}

async function runCadence(context: ScenarioContext, cadence: KillCadence): Promise<FaultResult> {
  const result = faultResult('worker-kill', `kill -9 of the worker's process group, ${cadence.name}`);
  const rig = await startScenarioRig(context, 'kill');
  const workload = rig.workload({ conversationOptions: { continueAsNewAfterEvents: context.profile.continueAsNewAfterEvents } });
  const aims: Array<{ aim: KillAim; seen: boolean }> = [];
  const { verdicts } = await workloadUnderFaults(rig, workload, result, async () => {
    const kills: FaultMoment[] = [];
    for (let i = 0; i < cadence.kills; i++) {
      await pauseWithin(cadence.pauseMs);
      const aim = KILL_AIMS[i % KILL_AIMS.length] ?? 'Claude call';
      const seen = await waitForAim(aim, { model: rig.model, fleet: rig.fleet, workload }, AIM_TIMEOUT_MS);
      const victim = rig.fleet.alive()[0];
      if (!victim) throw new Error('no live worker to kill');
      const at = await rig.fleet.kill(victim);
      aims.push({ aim, seen });
      context.log(`  kill ${i + 1}/${cadence.kills} ${cadence.name} (${aim}${seen ? '' : ', not seen in time'}): pid ${victim.process.pid}; ${workload.conversations.length} conversations so far`);
      await rig.fleet.spawn();
      // Progress after a kill: a workflow task completed by a worker started after it (this one or a later one).
      kills.push({ at, progressed: (task) => (rig.fleet.spawnedAtByPid().get(identityPid(task.identity) ?? -1) ?? -Infinity) >= at });
    }
    return kills;
  });
  const starts = rig.fleet.workers.slice(1).map((w) => w.readyAt - w.spawnedAt);
  result.details.unshift(`${aims.length} kills aimed at ${count(aims.map((a) => a.aim))}; the aimed moment was seen before ${aims.filter((a) => a.seen).length} of them`);
  result.details.push(
    `${total(verdicts, (v) => v.conversation.turns.length)} turns; history: ${total(verdicts, (v) => v.facts.activityRetries)} activity retries, ` +
      `${workflowTaskTimeouts(verdicts)}, ${total(verdicts, (v) => v.facts.continuedAsNew)} continue-as-new`,
    describeWorkflowTasks(verdicts),
    ...(starts.length > 0 ? [`worker restart (spawn to polling): median ${(median(starts) / 1000).toFixed(1)} s, max ${(Math.max(...starts) / 1000).toFixed(1)} s`] : []),
  );
  return result;
}

/**
 * Scenario 1, once per cadence of the profile, the cadences side by side: each has its own task
 * queue, workers and conversations, and its recoveries are set by timeouts, not by the machine.
 */
export const workerKill: ChaosScenario = {
  name: 'worker-kill',
  run: async (context) => {
    for (const cadence of context.profile.cadences) context.log(`worker kill, ${cadence.name}: ${cadence.kills} kills`);
    // Settled, not all: one cadence's failure must not leave the other running unwatched.
    const settled = await Promise.allSettled(context.profile.cadences.map((cadence) => runCadence(context, cadence)));
    return settled.map((outcome, i) => {
      if (outcome.status === 'fulfilled') return outcome.value;
      const failed = faultResult('worker-kill', `kill -9 of the worker's process group, ${context.profile.cadences[i]?.name ?? ''}`);
      failed.problems.push(`the cadence's run failed: ${outcome.reason instanceof Error ? (outcome.reason.stack ?? outcome.reason.message) : String(outcome.reason)}`);
      return failed;
    });
  },
};
