/**
 * The loop every "break it while it runs" scenario shares: keep the workload's conversations going
 * while `inject` breaks things, then let the conversations started finish, check them all, and
 * measure where the faults landed and how fast the conversations recovered.
 */
import type { FaultResult } from '../report/fault-result';
import type { ConversationVerdict } from './check-conversations';
import type { ConversationWorkload } from './conversation-workload';
import { describeImpact, faultImpact, type FaultImpact, type FaultMoment } from './fault-impact';
import type { ScenarioRig } from './scenario-rig';

/** Runs `workload` on `rig` while `inject` runs; fills `result` (invariants, recovery, where faults landed). */
export async function workloadUnderFaults(
  rig: ScenarioRig,
  workload: ConversationWorkload,
  result: FaultResult,
  inject: () => Promise<FaultMoment[]>,
): Promise<{ verdicts: ConversationVerdict[]; impact: FaultImpact }> {
  let injecting = true;
  const working = workload.run(() => injecting);
  let moments: FaultMoment[];
  try {
    moments = await inject();
  } catch (err) {
    injecting = false;
    await rig.close(); // the conversations' sends fail at once instead of waiting out their deadline
    await working;
    throw err;
  }
  injecting = false;
  await working;
  const verdicts = await rig.finish(workload, result);
  const impact = faultImpact(moments, verdicts);
  result.recoveryMs.push(...impact.recoveryMs);
  result.details.push(describeImpact(impact));
  return { verdicts, impact };
}

/** Sums a figure over the verdicts (e.g. activity retries). */
/** `N workflow task timeouts (S waiting on a sticky queue, R running)`, from the histories. */
export function workflowTaskTimeouts(verdicts: readonly ConversationVerdict[]): string {
  const all = total(verdicts, (v) => v.facts.workflowTaskTimeouts);
  const sticky = total(verdicts, (v) => v.facts.stickyQueueTimeouts);
  return `${all} workflow task timeouts (${sticky} waiting on a sticky queue, ${all - sticky} running)`;
}

export function total(verdicts: readonly ConversationVerdict[], pick: (verdict: ConversationVerdict) => number): number {
  return verdicts.reduce((n, verdict) => n + pick(verdict), 0);
}

/** A percentile of some samples (nearest rank). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/**
 * The workflow tasks' times from the histories: how long a worker took from starting a task to
 * completing it (what the workflow task timeout must cover) and how long a task waited for a poll.
 */
export function describeWorkflowTasks(verdicts: readonly ConversationVerdict[]): string {
  const run = verdicts.flatMap((v) => v.facts.workflowTaskRunMs);
  const wait = verdicts.flatMap((v) => v.facts.workflowTaskWaitMs);
  if (run.length === 0) return 'workflow tasks: none completed';
  const figures = (values: readonly number[]): string =>
    `median ${percentile(values, 50)} ms, p99 ${percentile(values, 99)} ms, max ${Math.max(...values)} ms`;
  return `workflow tasks: ${run.length} completed, started → completed ${figures(run)}; scheduled → started ${figures(wait)}`;
}
