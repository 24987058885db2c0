/**
 * Scenario 8: MCP tasks (issue 27) across worker kills. A tool its server runs as a task must run
 * once however many workers die under its call: the task id rides in the call's heartbeat details,
 * and the attempt after a lost worker polls the same task instead of calling the tool again.
 *
 * Per wire (the 2025-11-25 tasks, the 2026-07-28 tasks extension), one conversation whose first
 * round calls the task tool of an HTTP MCP server process of the scenario's own (it outlives the
 * workers: test/fixtures/task-2025-server.ts, task-2026-server.ts); the worker running the call is
 * `kill -9`ed with its process group `kills` times, each once the task id has reached Temporal,
 * and replaced. The tool's re-executions are its body's starts (`started <taskId>` lines in the
 * server's log) beyond the first, and must be 0; the turn must complete with the tool's result,
 * and the conversation go on exactly. Recovery: from a kill to the next attempt running the call.
 */
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeFirst } from '../../src/client/decode-payloads';
import { faultResult, type FaultResult } from '../report/fault-result';
import type { ChaosScenario, ScenarioContext } from '../scenario';
import { injectedCallStep, resultText, withInjectedRound, type InjectedCall } from '../support/injected-round';
import { perConversationResults, rigProblems } from '../support/per-conversation-results';
import { startScenarioRig, type ScenarioRig } from '../support/scenario-rig';
import type { WorkloadShape } from '../support/turn-plan';
import { startTaskServer } from '../../test/fixtures/start-task-server';

/** The two wires, each with its fixture. */
const WIRES = [
  { wire: '2025-11-25 tasks', fixture: 'test/fixtures/task-2025-server.ts' },
  { wire: '2026-07-28 tasks extension', fixture: 'test/fixtures/task-2026-server.ts' },
] as const;

/** How long each wait of the scenario may take before it fails. */
const WAIT_MS = 60_000;

/** One conversation, two short turns: the task call comes first in turn 1. */
function taskShape(shape: WorkloadShape): WorkloadShape {
  return { ...shape, turns: 2, rounds: [1, 1], parallelTools: 1 };
}


async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function startedLines(logFile: string): string[] {
  return fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter((line) => line.startsWith('started ')) : [];
}

/** The running tool call of `workflowId`: its attempt, whether a worker runs it, and the task id in its heartbeat details. */
async function pendingCall(client: Client, workflowId: string): Promise<{ attempt: number; started: boolean; taskId: string | undefined } | undefined> {
  const pending = (await client.workflow.getHandle(workflowId).describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'callTool');
  if (pending === undefined) return undefined;
  const details = (await decodeFirst(client, pending.heartbeatDetails?.payloads)) as { taskId?: unknown } | undefined;
  return {
    attempt: pending.attempt ?? 1,
    started: pending.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
    taskId: typeof details?.taskId === 'string' ? details.taskId : undefined,
  };
}

/** Kills the call's worker `kills` times (see the module comment); returns the recoveries, ms. */
async function killDuringTask(context: ScenarioContext, rig: ScenarioRig, client: Client, logFile: string, kills: number): Promise<number[]> {
  const workflowId = `chaos-${rig.run}-c1`;
  const taskId = await waitFor('the task to start', () => startedLines(logFile)[0]?.slice('started '.length));
  const recoveries: number[] = [];
  for (let kill = 1; kill <= kills; kill++) {
    // Only once the id has reached Temporal is there a task to resume.
    await waitFor(`attempt ${kill} to heartbeat the task id`, async () => {
      const call = await pendingCall(client, workflowId);
      return call?.attempt === kill && call.started && call.taskId === taskId ? true : undefined;
    });
    const worker = rig.fleet.alive()[0];
    if (worker === undefined) throw new Error('no live worker to kill');
    const at = await rig.fleet.kill(worker);
    await rig.fleet.spawn();
    await waitFor(`attempt ${kill + 1} to run`, async () => {
      const call = await pendingCall(client, workflowId);
      // The call may also have ended on the new worker already.
      return call === undefined || (call.attempt > kill && call.started) ? true : undefined;
    });
    recoveries.push(Date.now() - at);
    context.log(`  tasks: kill ${kill}/${kills} during task ${taskId}; the call ran again ${((Date.now() - at) / 1000).toFixed(1)} s later`);
  }
  return recoveries;
}

/** One wire: its server, a worker fleet, the conversation and the kills. */
async function runWire(context: ScenarioContext, wire: (typeof WIRES)[number]): Promise<FaultResult[]> {
  const { kills, taskMs } = context.profile.tasks;
  const shape = taskShape(context.profile.shape);
  const fault = `MCP task tool (${wire.wire}), worker killed (-9, process group) ${kills}× during the task`;
  const dir = fs.mkdtempSync(path.join(context.dir, 'tasks-'));
  const logFile = path.join(dir, 'task.log');
  const server = await startTaskServer(wire.fixture, logFile);
  const connection = await Connection.connect({ address: context.temporal.address });
  let rig: ScenarioRig | undefined;
  try {
    rig = await startScenarioRig(context, 'task', {
      extraServers: () => [{ name: 'tasks', transport: 'http', url: server.url, headers: {}, tools: {}, oauth: false }],
    }, shape);
    const client = new Client({ connection, dataConverter: rig.client.library.dataConverter });
    const call: InjectedCall = { id: 'toolu_task', name: 'slow_task', input: { text: `${rig.run}.task`, ms: taskMs } };
    rig.model.inject(1, injectedCallStep(call));
    const workload = rig.workload({ concurrency: 1 });
    const running = workload.runCount(1);
    const recoveries = await killDuringTask(context, rig, client, logFile, kills).catch(async (err: unknown) => {
      await running.catch(() => undefined);
      throw err;
    });
    await running;
    const starts = startedLines(logFile).length;
    await stopProcess(server.child);
    const all = faultResult('mcp-tasks', fault);
    const verdicts = await rig.finish(workload, all, (c) =>
      withInjectedRound(rig!, shape, c, call, 'completed', (result) => result.is_error !== true && resultText(result) === `done: ${rig!.run}.task`),
    );
    const [result] = perConversationResults('mcp-tasks', [fault], rig, verdicts);
    if (result === undefined) return [];
    result.recoveryMs.push(...recoveries);
    result.toolReExecutions += Math.max(0, starts - 1);
    if (starts !== 1) result.problems.push(`the task tool's body started ${starts} times (its server's log); it must start once`);
    result.details.push(`the task tool (${taskMs / 1000} s) started ${starts}× over ${kills + 1} attempts (its server's log)`);
    return [result, ...rigProblems('mcp-tasks', `${fault}: processes left behind`, all)];
  } finally {
    await stopProcess(server.child);
    await rig?.close();
    await connection.close();
  }
}

/** Scenario 8, both wires side by side. */
export const mcpTasks: ChaosScenario = {
  name: 'mcp-tasks',
  run: async (context) => {
    context.log(`MCP tasks: ${context.profile.tasks.kills} kills during a task tool call, per wire (${WIRES.length})`);
    const settled = await Promise.allSettled(WIRES.map((wire) => runWire(context, wire)));
    return settled.flatMap((outcome, i) => {
      if (outcome.status === 'fulfilled') return outcome.value;
      const failed = faultResult('mcp-tasks', `MCP task tool (${WIRES[i]?.wire ?? 'a wire'}) across worker kills`);
      failed.problems.push(`the run failed: ${outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)}`);
      return [failed];
    });
  },
};
