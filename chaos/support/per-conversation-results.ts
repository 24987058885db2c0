/**
 * For scenarios that give each fault a conversation of its own: one result row per conversation,
 * with its verdict, its tool re-executions (its tool texts in the rig's call logs), and a line on
 * how its first turn ended.
 */
import { faultResult, type FaultResult } from '../report/fault-result';
import type { ConversationVerdict } from './check-conversations';
import type { SentTurn } from './conversation-workload';
import type { ScenarioRig } from './scenario-rig';
import { reExecutions } from './tool-log';

/** Fills one result per verdict; `faults[n - 1]` names conversation n's fault. */
export function perConversationResults(scenario: string, faults: readonly string[], rig: ScenarioRig, verdicts: readonly ConversationVerdict[], callLogs: readonly string[] = []): FaultResult[] {
  return verdicts.map((verdict) => {
    const n = verdict.conversation.number;
    const result = faultResult(scenario, faults[n - 1] ?? `conversation ${n}`);
    Object.assign(result, {
      runs: 1,
      conversations: 1,
      exact: verdict.exact ? 1 : 0,
      lost: verdict.lost,
      duplicated: verdict.duplicated,
      toolReExecutions: reExecutions([...rig.fleet.labLogs(), ...callLogs], `${rig.run}.c${n}.`),
    });
    result.problems.push(...verdict.problems);
    const [turn1, turn2] = verdict.conversation.turns;
    const took = (turn: SentTurn | undefined): string =>
      turn?.answeredAt !== undefined ? `${turn.result?.status ?? 'unanswered'} after ${((turn.answeredAt - turn.sentAt) / 1000).toFixed(1)} s` : 'not answered';
    const error = turn1?.result?.error !== undefined ? ` ("${turn1.result.error.slice(0, 200)}")` : '';
    result.details.push(`turn 1 ${took(turn1)}${error}; turn 2 ${took(turn2)}`);
    return result;
  });
}

/** Problems of the rig itself (processes left behind) belong to no one fault: a row of their own, only when there are any. */
export function rigProblems(scenario: string, fault: string, rigResult: FaultResult): FaultResult[] {
  const leftovers = rigResult.problems.filter((p) => p.startsWith('left behind'));
  return leftovers.length > 0 ? [{ ...faultResult(scenario, fault), problems: leftovers }] : [];
}
