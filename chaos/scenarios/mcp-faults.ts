/**
 * Scenario 5: MCP servers that misbehave, configured beside the lab server: one that crashes
 * mid-call, one whose tool hangs, one that answers garbage (bytes that are not JSON-RPC, then a
 * result that is not an object), one that never finishes the handshake, and one whose binary does
 * not exist. The faulty calls are scripted into the model's first reply; each must end as designed
 * (an `is_error` result: a call that may have run is not run again unless its tool is idempotent), every conversation must go on exactly, and
 * no zombie or orphaned process may remain, under the live worker or after it stops.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpServerConfig } from '../../src/mcp/config';
import { scenarioServer } from '../../test/fixtures/reference-servers';
import { descendants } from '../../test/fixtures/process-tree';
import { faultResult, type FaultResult } from '../report/fault-result';
import type { ChaosScenario, ScenarioContext } from '../scenario';
import { plannedExpectation } from '../support/check-conversations';
import { injectedCallStep, resultText, withInjectedRound, type InjectedCall, type InjectedOutcome, type ToolResultBlock } from '../support/injected-round';
import { perConversationResults, rigProblems } from '../support/per-conversation-results';
import { zombieChildrenOf } from '../support/process-leaks';
import { startScenarioRig } from '../support/scenario-rig';
import type { WorkloadShape } from '../support/turn-plan';

/** How long the misbehaving servers' requests may take (their `timeoutMs`): short, so hangs end soon. */
const TIMEOUT_MS = 2000;

/** One misbehaving server and, if the model calls it, the call and its designed answer. */
interface McpFault {
  fault: string;
  server: (dir: string) => McpServerConfig;
  call?: InjectedCall;
  outcome?: InjectedOutcome;
  accept?: (result: ToolResultBlock) => boolean;
  /** Its call log (SCENARIO_LOG), when it has one: executions of its tool, for re-executions. */
  log?: (dir: string) => string;
}

const FAULTS: McpFault[] = [
  {
    fault: 'MCP server crashes mid-call (exits while the call runs)',
    server: (dir) => scenarioServer('crashy', { SCENARIO_TOOLS: 'die_once', SCENARIO_STATE: path.join(dir, 'crashy.state'), SCENARIO_LOG: path.join(dir, 'crashy.log') }),
    call: { id: 'toolu_crashy', name: 'die_once', input: {} },
    // The call in flight when the connection broke may have run, and the tool is not marked
    // idempotent: not run again; the model gets the host's is_error result saying so (README,
    // "Failures and retries"). The server is started anew for the next calls.
    outcome: 'ended',
    accept: (result) => result.is_error === true && resultText(result).includes('not run again'),
    log: (dir) => path.join(dir, 'crashy.log'),
  },
  {
    fault: `MCP tool hangs (server timeoutMs ${TIMEOUT_MS} ms)`,
    server: (dir) => scenarioServer('stuck', { SCENARIO_TOOLS: 'hang', SCENARIO_LOG: path.join(dir, 'stuck.log') }, { timeoutMs: TIMEOUT_MS }),
    call: { id: 'toolu_stuck', name: 'hang', input: {} },
    outcome: 'ended',
    accept: (result) => result.is_error === true,
    log: (dir) => path.join(dir, 'stuck.log'),
  },
  {
    fault: 'MCP server answers garbage (not JSON-RPC, then a result that is not an object)',
    server: (dir) => scenarioServer('babbler', { SCENARIO_TOOLS: 'garbage', SCENARIO_LOG: path.join(dir, 'babbler.log') }, { timeoutMs: TIMEOUT_MS }),
    call: { id: 'toolu_babbler', name: 'garbage', input: {} },
    outcome: 'ended',
    accept: (result) => result.is_error === true,
    log: (dir) => path.join(dir, 'babbler.log'),
  },
  {
    fault: 'MCP server never finishes the handshake (configured beside the lab server)',
    server: (dir) => scenarioServer('mute', { SCENARIO_MUTE: '1', SCENARIO_LOG: path.join(dir, 'mute.log') }, { timeoutMs: TIMEOUT_MS }),
  },
  {
    fault: 'MCP server binary missing (configured beside the lab server)',
    server: () => ({ name: 'ghost', transport: 'stdio', command: '/nonexistent/chaos-mcp-server', args: [], env: {}, tools: {} }),
  },
];

/** One conversation, two short turns: the fault's call (if any) comes first in turn 1. */
function faultShape(shape: WorkloadShape): WorkloadShape {
  return { ...shape, turns: 2, rounds: [1, 1], parallelTools: 1 };
}

/** Runs one fault on a worker of its own (the lab server and the faulty one). */
async function runFault(context: ScenarioContext, fault: McpFault): Promise<FaultResult[]> {
  const shape = faultShape(context.profile.shape);
  const rig = await startScenarioRig(context, 'mcp', { extraServers: (labLog) => [fault.server(path.dirname(labLog))] }, shape);
  const workload = rig.workload({ concurrency: 1 });
  if (fault.call) rig.model.inject(1, injectedCallStep(fault.call));
  await workload.runCount(1);
  // While the worker still runs: what lives under it, and whether it reaped every child that ended.
  const worker = rig.fleet.alive()[0];
  const under = worker ? descendants(worker.process.pid) : [];
  const zombies = [worker?.process.pid ?? -1, ...under.map((p) => p.pid)].flatMap(zombieChildrenOf);
  const all = faultResult('mcp-faults', fault.fault);
  const verdicts = await rig.finish(workload, all, async (c) =>
    fault.call ? withInjectedRound(rig, shape, c, fault.call, fault.outcome ?? 'completed', fault.accept ?? (() => true)) : plannedExpectation(shape, rig.run, c),
  );
  const [result] = perConversationResults('mcp-faults', [fault.fault], rig, verdicts);
  if (!result) return [];
  const logFile = fault.log?.(rig.dir);
  const executions = logFile && fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter((l) => l.startsWith('start ')).length : 0;
  if (fault.call) {
    // The faulty tool's executions are counted by its own log (its call has no planned text).
    result.toolReExecutions += Math.max(0, executions - 1);
    result.details.push(`the faulty tool ran ${executions}× (its server's log)`);
  }
  result.details.push(`at the end, under the live worker: ${under.length} processes (MCP servers), ${zombies.length} zombies`);
  if (zombies.length > 0) result.problems.push(`zombie processes under the worker: ${zombies.join(', ')}`);
  return [result, ...rigProblems('mcp-faults', `${fault.fault}: processes left behind`, all)];
}

/** Scenario 5, one worker per fault, all at once (the handshake that never ends takes a minute by itself). */
export const mcpFaults: ChaosScenario = {
  name: 'mcp-faults',
  run: async (context) => {
    context.log(`MCP faults: ${FAULTS.length} faults, a worker and a conversation each, side by side`);
    // Settled, not all: one fault's failure must not leave the others running unwatched.
    const settled = await Promise.allSettled(FAULTS.map((fault) => runFault(context, fault)));
    return settled.flatMap((outcome, i) => {
      if (outcome.status === 'fulfilled') return outcome.value;
      const failed = faultResult('mcp-faults', FAULTS[i]?.fault ?? 'an MCP fault');
      failed.problems.push(`the fault's run failed: ${outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)}`);
      return [failed];
    });
  },
};
