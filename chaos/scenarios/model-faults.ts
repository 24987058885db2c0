/**
 * Scenario 4: faults of Claude's API, from the scripted fake, one conversation per fault, all at
 * once on one worker. Each fault is injected before the first turn's first planned answer; the
 * turn must end as designed (retried until it succeeds, a clear failed turn, or a host `is_error`
 * tool result the model then answers), and a second turn must work: the conversation stays usable.
 */
import type { ScriptStep } from '../../src/testing';
import { faultResult } from '../report/fault-result';
import type { ChaosScenario } from '../scenario';
import type { TurnOutcome, WorkloadConversation } from '../support/conversation-workload';
import { plannedAnswer } from '../support/chaos-model';
import { plannedExpectation, type Expectation } from '../support/check-conversations';
import { injectedCallStep, withInjectedRound, type InjectedCall, type InjectedOutcome } from '../support/injected-round';
import { perConversationResults, rigProblems } from '../support/per-conversation-results';
import { startScenarioRig } from '../support/scenario-rig';
import { turnPlan, turnTranscript, type WorkloadShape } from '../support/turn-plan';

/** How a fault's first turn must end. */
type Design = 'retried' | 'failed turn' | 'is_error round';

/** One model fault. */
interface ModelFault {
  fault: string;
  design: Design;
  /** The steps injected before the plan's answers, for conversation `conversation` of this shape. */
  steps?: (conversation: number, shape: WorkloadShape) => ScriptStep[];
  /** Or, for an `is_error round`: the call the model makes, and what its activity must do. */
  call?: (conversation: number) => InjectedCall;
  outcome?: InjectedOutcome;
  longOnly?: boolean;
}

/** Retry-after of the 429 burst: the gaps between its attempts must honour it. */
const RETRY_AFTER_S = 2;
/** Four times the default heartbeat timeout (3 s): only heartbeats keep the call alive this long. */
const LATE_ANSWER_MS = 12_000;
/**
 * Longer than any HTTP timeout of the worker (the SDK is given 9 minutes; Node's fetch gives up on
 * response headers after 5), the only bounds on a call whose answer never comes: heartbeats keep it alive.
 */
const NEVER_MS = 15 * 60_000;

const FAULTS: ModelFault[] = [
  {
    fault: `429 burst ×3 with retry-after: ${RETRY_AFTER_S}`,
    design: 'retried',
    steps: () => Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 429, headers: { 'retry-after': String(RETRY_AFTER_S) } })),
  },
  { fault: '529 overloaded ×2', design: 'retried', steps: () => [{ kind: 'error', status: 529 }, { kind: 'error', status: 529 }] },
  { fault: '500 ×2', design: 'retried', steps: () => [{ kind: 'error', status: 500 }, { kind: 'error', status: 500 }] },
  { fault: 'dropped connection ×2', design: 'retried', steps: () => [{ kind: 'drop' }, { kind: 'drop', delayMs: 300 }] },
  { fault: 'malformed JSON in a 200', design: 'retried', steps: () => [{ kind: 'raw', status: 200, body: '{"id":"msg_01","type":"message","content":[' }] },
  { fault: 'HTML 502 from a proxy', design: 'retried', steps: () => [{ kind: 'raw', status: 502, body: '<html><body>502 Bad Gateway</body></html>', contentType: 'text/html' }] },
  {
    fault: `an answer ${LATE_ANSWER_MS / 1000} s late (past the default heartbeat timeout)`,
    design: 'retried',
    steps: (_c, shape) => [{ kind: 'respond', respond: (request) => ({ ...plannedAnswer(shape, request), delayMs: LATE_ANSWER_MS }) }],
  },
  {
    fault: 'an answer that never comes (cut by the HTTP client, then retried)',
    design: 'retried',
    longOnly: true,
    steps: (_c, shape) => [{ kind: 'respond', respond: (request) => ({ ...plannedAnswer(shape, request), delayMs: NEVER_MS }) }],
  },
  { fault: '400 invalid_request (not retryable)', design: 'failed turn', steps: () => [{ kind: 'error', status: 400, message: 'chaos: a request the API refuses' }] },
  {
    fault: 'tool_use of an unknown tool',
    design: 'is_error round',
    call: (c) => ({ id: `toolu_unknown_${c}`, name: 'no_such_tool', input: {} }),
    // The host cannot route it: never scheduled, answered by the host at once.
    outcome: 'unscheduled',
  },
  {
    fault: "tool input that breaks the tool's schema",
    design: 'is_error round',
    call: (c) => ({ id: `toolu_badinput_${c}`, name: 'slow_echo', input: { text: 42, ms: 'soon' } }),
    // Scheduled and run: the server refuses the arguments with an isError result, which is data.
    outcome: 'completed',
  },
];

/** The two-turn shape of these conversations (one round of one tool keeps them short). */
function faultShape(shape: WorkloadShape): WorkloadShape {
  return { ...shape, turns: 2, rounds: [1, 1], parallelTools: 1 };
}

/** What a conversation whose first turn failed before Claude answered must hold: turn 2 joins turn 1's user message. */
function afterFailedTurn(shape: WorkloadShape, run: string, conversation: WorkloadConversation): Expectation {
  const second = turnPlan(shape, run, conversation.number, 2);
  const [, ...rest] = turnTranscript(second);
  const first = turnPlan(shape, run, conversation.number, 1).userText;
  return {
    messages: [{ role: 'user', content: [{ type: 'text', text: first }, { type: 'text', text: second.userText }] }, ...rest],
    toolIds: second.rounds.flat().map((t) => t.id),
    modelCalls: second.rounds.length + 1,
  };
}

function judge(design: Design, turn: number, result: TurnOutcome | undefined): string | undefined {
  if (turn === 1 && design === 'failed turn') return result?.status === 'failed' && result.error ? undefined : `expected a failed turn, got ${JSON.stringify(result)}`;
  return result?.status === 'completed' ? undefined : `expected a completed turn, got ${JSON.stringify(result)}`;
}

/** Scenario 4. */
export const modelFaults: ChaosScenario = {
  name: 'model-faults',
  run: async (context) => {
    const faults = FAULTS.filter((f) => context.profile.name === 'long' || f.longOnly !== true);
    context.log(`model faults: ${faults.length} faults, one conversation each`);
    const shape = faultShape(context.profile.shape);
    const rig = await startScenarioRig(context, 'model', {}, shape);
    const byNumber = (n: number): ModelFault => faults[n - 1] ?? (faults[0] as ModelFault);
    const workload = rig.workload({
      concurrency: faults.length,
      judgeTurn: (n, turn, result) => judge(byNumber(n).design, turn, result),
      // The answer that never comes ends only when the HTTP client gives up (minutes): its turn may take that long.
      sendDeadlineMs: NEVER_MS,
    });
    faults.forEach((fault, i) => rig.model.inject(i + 1, ...(fault.call ? [injectedCallStep(fault.call(i + 1))] : (fault.steps?.(i + 1, shape) ?? []))));
    await workload.runCount(faults.length);
    const all = faultResult('model-faults', 'Claude API faults: the worker afterwards');
    const verdicts = await rig.finish(workload, all, async (c) => {
      const fault = byNumber(c.number);
      if (fault.design === 'failed turn') return afterFailedTurn(shape, rig.run, c);
      if (fault.call) return withInjectedRound(rig, shape, c, fault.call(c.number), fault.outcome ?? 'completed', (result) => result.is_error === true);
      return plannedExpectation(shape, rig.run, c);
    });
    const results = perConversationResults('model-faults', faults.map((f) => `Claude API: ${f.fault}`), rig, verdicts);
    results.forEach((result, i) => {
      const n = verdicts[i]?.conversation.number ?? 0;
      const requests = rig.model.requestsOf(n);
      result.details.push(`${requests.length} model requests in all`);
      if (byNumber(n).fault.startsWith('429')) {
        const gaps = requests.slice(1, 4).map((r, i) => r.receivedAt - (requests[i]?.receivedAt ?? 0));
        result.details.push(`gaps between the attempts: ${gaps.map((g) => `${(g / 1000).toFixed(1)} s`).join(', ')}`);
        if (gaps.some((g) => g < RETRY_AFTER_S * 1000 - 100)) result.problems.push(`retry-after ${RETRY_AFTER_S} s not honoured`);
      }
    });
    return [...results, ...rigProblems('model-faults', 'Claude API faults: processes left behind', all)];
  },
};
