/**
 * Scenario 2: the Temporal dev server (the suite's own, on its SQLite file) is stopped and started
 * again mid-conversation, a few times. Nothing else is restarted: the worker and the clients (the
 * library's, and `mcp-host send` processes for every conversation's second turn) must reconnect by
 * themselves, and every transcript must come out exact.
 */
import { median } from '../../bench/median';
import { faultResult } from '../report/fault-result';
import type { ChaosScenario } from '../scenario';
import type { FaultMoment } from '../support/fault-impact';
import { pauseWithin } from '../support/pause';
import { startScenarioRig } from '../support/scenario-rig';
import { total, workflowTaskTimeouts, workloadUnderFaults } from '../support/under-faults';

/** Scenario 2. */
export const serverRestart: ChaosScenario = {
  name: 'server-restart',
  run: async (context) => {
    const { restarts, pauseMs } = context.profile.serverRestarts;
    context.log(`Temporal server restart: ${restarts} restarts`);
    const result = faultResult('server-restart', 'Temporal dev server restart (SQLite file kept) mid-conversation');
    const rig = await startScenarioRig(context, 'restart');
    const workload = rig.workload({
      conversationOptions: { continueAsNewAfterEvents: context.profile.continueAsNewAfterEvents },
      cliTurns: (turn) => turn === 2,
    });
    const downtimes: number[] = [];
    const { verdicts } = await workloadUnderFaults(rig, workload, result, async () => {
      const moments: FaultMoment[] = [];
      for (let i = 0; i < restarts; i++) {
        await pauseWithin(pauseMs);
        const at = Date.now();
        await context.temporal.restart();
        const upAt = Date.now();
        downtimes.push(upAt - at);
        // Progress after a restart: any workflow task completed once the server was back.
        moments.push({ at, progressed: (task) => task.at >= upAt });
        context.log(`  restart ${i + 1}/${restarts}: down ${((upAt - at) / 1000).toFixed(1)} s; ${workload.conversations.length} conversations so far`);
      }
      return moments;
    });
    result.details.unshift(
      `${restarts} restarts; server down (stop to answering again) median ${(median(downtimes) / 1000).toFixed(1)} s, ` +
        `max ${(Math.max(...downtimes) / 1000).toFixed(1)} s; recovery is timed from the stop`,
    );
    result.details.push(
      `${verdicts.filter((v) => v.conversation.turns.length >= 2).length} turns sent by \`mcp-host send\` processes, the others by ConversationClient; ` +
        `history: ${total(verdicts, (v) => v.facts.activityRetries)} activity retries, ${workflowTaskTimeouts(verdicts)}`,
    );
    return [result];
  },
};
