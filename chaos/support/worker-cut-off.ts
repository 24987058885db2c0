/**
 * One worker of two cut off from the Temporal frontend and let back in: the second worker reaches
 * the server through a TCP relay of the suite's own (tcp-relay.ts), which drops its connections
 * and refuses new ones for the cut's length, then relays again. The worker is never restarted: it
 * must rejoin by itself. What the suite watches meanwhile: whether the worker process stays up,
 * what it logs, whether it starts tool calls while cut off, and, afterwards, how long the
 * conversations it was running a tool call for took to move on (their calls retried by the other
 * worker once the heartbeat timeout passed) and how long it took to work again once let back in.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultResult } from '../report/fault-result';
import type { ScenarioContext } from '../scenario';
import type { ConversationVerdict } from './check-conversations';
import { describeImpact, faultImpact, type FaultMoment } from './fault-impact';
import { waitForAim } from './kill-aims';
import { pauseWithin } from './pause';
import { identityPid } from './run-histories';
import type { ScenarioRig } from './scenario-rig';
import { startTcpRelay } from './tcp-relay';
import { executionCounts, unfinishedCalls } from './tool-log';
import { total, workflowTaskTimeouts, workloadUnderFaults } from './under-faults';
import type { FleetWorker } from './worker-fleet';

/** How long the cut-off worker may take to start a tool call again once let back in. */
const REJOIN_TIMEOUT_MS = 90_000;

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** One cut, as it went. */
interface Cut {
  moment: FaultMoment;
  /** Tool call texts running on the cut-off worker at the cut. */
  inFlight: string[];
  /** Tool calls the worker started while cut off. */
  startedDuring: number;
  /** When the last of those started, from the cut. */
  lastStartMs?: number;
  /** Connections the relay accepted while cut off (must be 0). */
  acceptedDuring: number;
  exitedDuring: boolean;
  /** Distinct lines the worker logged while cut off (a few). */
  logged: string[];
  loggedLines: number;
  /** The same, from being let back in until it started a tool call again (and 5 s more). */
  loggedAfter: string[];
  /** From the relay relaying again to the worker's first tool call started after it; undefined if none came. */
  rejoinMs?: number;
}

function starts(worker: FleetWorker): number {
  let n = 0;
  for (const count of executionCounts([worker.labLog]).values()) n += count;
  return n;
}

/** Distinct log lines (colours and timestamps dropped, numbers masked to compare), the first few, shortened. */
function distinctLines(chunks: readonly string[], keep: number): { lines: string[]; count: number } {
  const all = chunks
    .join('')
    // eslint-disable-next-line no-control-regex -- the SDK core's log lines carry ANSI colour codes
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\d{4}-\d\d-\d\dT[\d:.]+Z\s*/, '').trim())
    .filter((line) => line !== '');
  const seen = new Map<string, string>();
  for (const line of all) {
    const key = line.replace(/\d+/g, '#').slice(0, 100);
    if (!seen.has(key)) seen.set(key, (line.length > 200 ? `${line.slice(0, 200)}…` : line).replace(/`/g, "'"));
  }
  return { lines: [...seen.values()].slice(0, keep), count: all.length };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The conversation ids of tool call texts (`<run>.c<n>.t<turn>.r<round>.<k>`). */
function conversationsOf(run: string, texts: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const text of texts) {
    const match = /\.c(\d+)\.t\d+\./.exec(text);
    if (match) ids.add(`chaos-${run}-c${match[1]}`);
  }
  return ids;
}

/** The first workflow task completed by `pid` at or after `from`, over every conversation. */
function firstTaskBy(verdicts: readonly ConversationVerdict[], pid: number, from: number): number | undefined {
  const times = verdicts.flatMap((v) => v.facts.workflowTasksCompleted.filter((t) => t.at >= from && identityPid(t.identity) === pid).map((t) => t.at));
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** Runs the cut-off fault `cuts` times on `rig` (one worker running), whose second worker it adds behind a relay to `frontend`. */
export async function cutOffWorker(context: ScenarioContext, rig: ScenarioRig, frontend: string, result: FaultResult, cuts: number): Promise<void> {
  const { cutOffMs, pauseMs } = context.profile.cluster;
  const relay = await startTcpRelay(frontend).catch(async (err: unknown) => {
    await rig.close();
    throw err;
  });
  try {
    const direct = rig.fleet.alive()[0];
    const cutOff = await rig.fleet.spawn(relay.address).catch(async (err: unknown) => {
      await rig.close();
      throw err;
    });
    const workload = rig.workload({ conversationOptions: { continueAsNewAfterEvents: context.profile.continueAsNewAfterEvents } });
    const done: Cut[] = [];
    const { verdicts } = await workloadUnderFaults(rig, workload, result, async () => {
      for (let i = 0; i < cuts; i++) {
        await pauseWithin(pauseMs);
        // waitForAim watches the newest worker's log: the one behind the relay.
        await waitForAim('tool call', { model: rig.model, fleet: rig.fleet, workload }, 5000);
        const inFlight = unfinishedCalls(cutOff.labLog);
        const outputFrom = cutOff.process.output.length;
        const at = Date.now();
        await relay.cut();
        const startsAtCut = starts(cutOff);
        const acceptedAtCut = relay.accepted();
        // Watched every 100 ms: when the last tool call start came, and whether the process lives.
        let exited = false;
        void cutOff.process.exited.then(() => (exited = true));
        let lastStartMs: number | undefined;
        let seen = startsAtCut;
        while (Date.now() - at < cutOffMs && !exited) {
          await sleep(100);
          const now = starts(cutOff);
          if (now > seen) lastStartMs = Date.now() - at;
          seen = now;
        }
        const exitedDuring = exited;
        const startedDuring = starts(cutOff) - startsAtCut;
        const acceptedDuring = relay.accepted() - acceptedAtCut;
        const { lines, count } = distinctLines(cutOff.process.output.slice(outputFrom), 6);
        await relay.restore();
        const restoredAt = Date.now();
        const hit = conversationsOf(rig.run, inFlight);
        const moment: FaultMoment = { at, endedAt: restoredAt, caught: (id) => hit.has(id), progressed: () => true };
        const outputAfter = cutOff.process.output.length;
        const cut: Cut = { moment, inFlight, startedDuring, ...(lastStartMs !== undefined ? { lastStartMs } : {}), acceptedDuring, exitedDuring, logged: lines, loggedLines: count, loggedAfter: [] };
        done.push(cut);
        context.log(`  cut ${i + 1}/${cuts}: pid ${cutOff.process.pid} cut off with ${inFlight.length} tool calls in flight; ${exitedDuring ? 'it EXITED' : `still up after ${s(cutOffMs)}`}; relaying again`);
        if (exitedDuring) {
          result.problems.push(`the cut-off worker (pid ${cutOff.process.pid}) exited while cut off: ${lines.join(' | ')}`);
          break;
        }
        // The workload keeps going until the worker is seen working again (a tool call started).
        const startsAtRestore = starts(cutOff);
        while (starts(cutOff) === startsAtRestore && Date.now() - restoredAt < REJOIN_TIMEOUT_MS) await sleep(50);
        if (starts(cutOff) > startsAtRestore) {
          cut.rejoinMs = Date.now() - restoredAt;
          await sleep(5000);
        } else result.problems.push(`the cut-off worker (pid ${cutOff.process.pid}) started no tool call in ${s(REJOIN_TIMEOUT_MS)} after the relay let it back in`);
        cut.loggedAfter = distinctLines(cutOff.process.output.slice(outputAfter), 4).lines;
        context.log(`  cut ${i + 1}/${cuts}: ${cut.rejoinMs !== undefined ? `working again ${s(cut.rejoinMs)} after` : 'not working again'}`);
      }
      await pauseWithin(pauseMs);
      return done.map((c) => c.moment);
    });
    for (const [i, cut] of done.entries()) {
      const impact = faultImpact([cut.moment], verdicts);
      const firstTask = firstTaskBy(verdicts, cutOff.process.pid, cut.moment.endedAt ?? cut.moment.at);
      const quote = (lines: readonly string[]): string => lines.map((l) => `\`${l}\``).join('; ');
      const elsewhere = direct ? executionCounts([direct.labLog]) : new Map<string, number>();
      const ranAgain = cut.inFlight.filter((text) => (elsewhere.get(text) ?? 0) > 0).length;
      result.details.push(
        `cut ${i + 1}: ${plural(cut.inFlight.length, 'tool call')} in flight on the cut-off worker, ${ranAgain} of them run again by the other worker; ${describeImpact(impact)}`,
        `cut ${i + 1}: while cut off the worker process stayed up; its MCP server logged ${plural(cut.startedDuring, 'tool call start')} after the cut` +
          `${cut.lastStartMs !== undefined ? ` (the last ${s(cut.lastStartMs)} after it)` : ''}, and the relay accepted ${plural(cut.acceptedDuring, 'connection')}; it logged ${plural(cut.loggedLines, 'line')}${cut.logged.length > 0 ? `, distinct ones: ${quote(cut.logged)}` : ''}`,
        `cut ${i + 1}: let back in (never restarted), it started a tool call again after ${cut.rejoinMs !== undefined ? s(cut.rejoinMs) : '—'} ` +
          `and completed a workflow task after ${firstTask !== undefined ? s(firstTask - (cut.moment.endedAt ?? 0)) : '— (none seen)'}` +
          `${cut.loggedAfter.length > 0 ? `; meanwhile it logged ${quote(cut.loggedAfter)}` : ''}`,
      );
    }
    result.details.unshift(
      'recovery is timed from the cut, for the conversations that had a tool call running on the cut-off worker (the others were not caught): to their next workflow task completed, by either worker',
    );
    result.details.push(
      `${total(verdicts, (v) => v.conversation.turns.length)} turns; the direct worker pid ${direct?.process.pid ?? '?'}, the relayed one pid ${cutOff.process.pid} ` +
        `(${relay.accepted()} connections through the relay); history: ${total(verdicts, (v) => v.facts.activityRetries)} activity retries, ${workflowTaskTimeouts(verdicts)}`,
    );
  } finally {
    await relay.close();
  }
}
