/**
 * Where each fault landed and how long the conversations it hit took to recover, read from the
 * histories afterwards. A conversation is hit by a fault at time T when T falls inside one of its
 * intervals (a Claude call, a tool call, a workflow task, a continue-as-new, or an update sent and
 * not yet accepted). Its recovery time runs from T to the first workflow task completed after the
 * fault that the fault's own test accepts as progress (for a kill: one completed by a worker
 * started after it): the moment its workflow code moved on again.
 */
import { median } from '../../bench/median';
import type { ConversationVerdict } from './check-conversations';
import type { Interval, MomentKind } from './history-facts';

/** A completed workflow task: when, and by which worker (`pid@host`). */
export interface CompletedTask {
  at: number;
  identity: string;
}

/** One fault as the scenario made it. */
export interface FaultMoment {
  at: number;
  /** When a fault that lasts (a server down, a connection cut) ended, to time recovery from its end too. */
  endedAt?: number;
  /** Which conversations the fault can catch (default: any in one of its intervals at `at`). */
  caught?(conversationId: string): boolean;
  /** Whether this completed workflow task shows a conversation moving on after the fault. */
  progressed(task: CompletedTask): boolean;
}

/** What the faults did. */
export interface FaultImpact {
  /** One sample per (fault, conversation hit). */
  recoveryMs: number[];
  /** The same samples timed from the fault's end (`endedAt`), for the faults that have one. */
  afterEndMs: number[];
  /** Recovery samples by the kind of moment the conversation was in (one sample may count in two kinds). */
  byKind: Partial<Record<MomentKind, number[]>>;
  /** Hits after which no workflow task shows progress. */
  unrecovered: number;
}

function admissionIntervals(verdict: ConversationVerdict): Interval[] {
  return verdict.conversation.turns.map((turn) => ({
    kind: 'update admission' as const,
    from: turn.sentAt,
    to: verdict.facts.updatesAccepted.get(turn.text)?.at ?? Infinity,
  }));
}

/** Places every fault in the conversations' timelines and measures their recoveries. */
export function faultImpact(faults: readonly FaultMoment[], verdicts: readonly ConversationVerdict[]): FaultImpact {
  const impact: FaultImpact = { recoveryMs: [], afterEndMs: [], byKind: {}, unrecovered: 0 };
  for (const verdict of verdicts) {
    const intervals = [...verdict.facts.intervals, ...admissionIntervals(verdict)];
    for (const fault of faults) {
      if (fault.caught && !fault.caught(verdict.conversation.id)) continue;
      const kinds = new Set(intervals.filter((i) => i.from <= fault.at && fault.at < i.to).map((i) => i.kind));
      if (kinds.size === 0) continue;
      const next = verdict.facts.workflowTasksCompleted.find((task) => task.at > fault.at && fault.progressed(task));
      if (!next) {
        impact.unrecovered += 1;
        continue;
      }
      impact.recoveryMs.push(next.at - fault.at);
      if (fault.endedAt !== undefined) impact.afterEndMs.push(next.at - fault.endedAt);
      for (const kind of kinds) (impact.byKind[kind] ??= []).push(next.at - fault.at);
    }
  }
  return impact;
}

/** One line on where the faults landed and how long recovery took from each kind of moment. */
export function describeImpact(impact: FaultImpact): string {
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}`;
  const kinds = Object.entries(impact.byKind)
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([kind, samples]) => `${kind} ×${samples.length} (median ${seconds(median(samples))} s, max ${seconds(Math.max(...samples))} s)`);
  const unrecovered = impact.unrecovered > 0 ? `; ${impact.unrecovered} with no later progress seen` : '';
  return `${impact.recoveryMs.length} conversations caught, by what they were in, with their recovery: ${kinds.join(', ') || 'none'}${unrecovered}`;
}
