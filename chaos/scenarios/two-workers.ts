/**
 * Scenario 3: two worker processes on one task queue; once both are busy, one is `kill -9`ed with
 * its process group (mid tool call when possible) and never replaced. The survivor must finish
 * every conversation, exactly.
 */
import { faultResult } from '../report/fault-result';
import type { ChaosScenario } from '../scenario';
import { waitForAim } from '../support/kill-aims';
import { pauseWithin } from '../support/pause';
import { identityPid } from '../support/run-histories';
import { startScenarioRig } from '../support/scenario-rig';
import { unfinishedCalls } from '../support/tool-log';
import { total, workflowTaskTimeouts, workloadUnderFaults } from '../support/under-faults';

/** Scenario 3. */
export const twoWorkers: ChaosScenario = {
  name: 'two-workers',
  run: async (context) => {
    const { runs, pauseMs } = context.profile.twoWorkers;
    context.log(`two workers, one killed: ${runs} runs`);
    const result = faultResult('two-workers', 'two workers on one task queue, one killed (-9, process group), not replaced');
    for (let run = 0; run < runs; run++) {
      const rig = await startScenarioRig(context, 'pair');
      await rig.fleet.spawn();
      const workload = rig.workload({ conversationOptions: { continueAsNewAfterEvents: context.profile.continueAsNewAfterEvents } });
      const { verdicts } = await workloadUnderFaults(rig, workload, result, async () => {
        await pauseWithin(pauseMs);
        await waitForAim('tool call', { model: rig.model, fleet: rig.fleet, workload }, 5000);
        // The worker with calls in flight, if either has: that is the kill that costs something.
        const [first, second] = rig.fleet.alive();
        if (!first || !second) throw new Error('two live workers expected');
        const victim = unfinishedCalls(first.labLog).length >= unfinishedCalls(second.labLog).length ? first : second;
        const survivor = victim === first ? second : first;
        const cutOff = unfinishedCalls(victim.labLog).length;
        const at = await rig.fleet.kill(victim);
        context.log(`  run ${run + 1}/${runs}: killed pid ${victim.process.pid} with ${cutOff} tool calls in flight; pid ${survivor.process.pid} carries on`);
        // Let the survivor take over new conversations for a while before the workload winds down.
        await pauseWithin(pauseMs);
        return [{ at, progressed: (task) => identityPid(task.identity) === survivor.process.pid }];
      });
      result.details.push(
        `run ${run + 1}: ${verdicts.length} conversations, ${total(verdicts, (v) => v.conversation.turns.length)} turns; ` +
          `history: ${total(verdicts, (v) => v.facts.activityRetries)} activity retries, ${workflowTaskTimeouts(verdicts)}`,
      );
    }
    return [result];
  },
};
