/**
 * Scenario 7: load. Hundreds of conversations at once, with parallel tool calls, on one worker:
 * all must complete exactly; the worker's resident memory is sampled throughout and reported
 * (peak, and the growth per conversation over its idle baseline), and must stay under a bound.
 */
import * as fs from 'node:fs';
import { median } from '../../bench/median';
import { faultResult } from '../report/fault-result';
import type { ChaosScenario } from '../scenario';
import { startScenarioRig } from '../support/scenario-rig';
import { describeWorkflowTasks, total, workflowTaskTimeouts } from '../support/under-faults';

/** The worker's peak resident memory may not exceed this: a leak or a per-conversation blow-up shows here. */
const PEAK_RSS_LIMIT_MIB = 1536;

/** Resident memory of a process in MiB (/proc/PID/status VmRSS), or 0 once it is gone. */
function rssMib(pid: number): number {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kib ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Scenario 7. */
export const load: ChaosScenario = {
  name: 'load',
  run: async (context) => {
    const count = context.profile.loadConversations;
    context.log(`load: ${count} conversations at once on one worker`);
    const result = faultResult('load', `${count} concurrent conversations with parallel tool calls on one worker`);
    const rig = await startScenarioRig(context, 'load', {}, { ...context.profile.shape, turns: 2, rounds: [1, 2] });
    const worker = rig.fleet.alive()[0];
    if (!worker) throw new Error('no worker');
    const baseline = rssMib(worker.process.pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMib(worker.process.pid))), 250);
    const started = Date.now();
    const workload = rig.workload({ concurrency: count });
    try {
      await workload.runCount(count);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (Date.now() - started) / 1000;
    const verdicts = await rig.finish(workload, result);
    const turns = total(verdicts, (v) => v.conversation.turns.length);
    const latencies = verdicts.flatMap((v) => v.conversation.turns.flatMap((t) => (t.answeredAt !== undefined ? [t.answeredAt - t.sentAt] : [])));
    result.details.push(
      `${count} conversations, ${turns} turns, ${total(verdicts, (v) => v.facts.toolCalls.size)} tool calls in ${seconds.toFixed(0)} s; ` +
        `turn latency median ${(median(latencies) / 1000).toFixed(1)} s, max ${(Math.max(...latencies) / 1000).toFixed(1)} s; ` +
        `history: ${workflowTaskTimeouts(verdicts)}, ${total(verdicts, (v) => v.facts.activityRetries)} activity retries`,
      describeWorkflowTasks(verdicts),
      `worker RSS: ${baseline.toFixed(0)} MiB idle, peak ${peak.toFixed(0)} MiB (${((peak - baseline) / count).toFixed(2)} MiB per conversation over idle); bound ${PEAK_RSS_LIMIT_MIB} MiB`,
    );
    if (peak > PEAK_RSS_LIMIT_MIB) result.problems.push(`worker peak RSS ${peak.toFixed(0)} MiB above the bound of ${PEAK_RSS_LIMIT_MIB} MiB`);
    return [result];
  },
};
