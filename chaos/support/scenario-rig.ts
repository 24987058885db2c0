/**
 * What most scenarios run on: a fresh task queue, the scripted model, a client of the library
 * under test, and a fleet of worker processes; `finish` checks every conversation and that no
 * process is left behind, and closes everything whatever failed.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FaultResult } from '../report/fault-result';
import type { ScenarioContext } from '../scenario';
import { startChaosModel, type ChaosModel } from './chaos-model';
import { checkConversations, plannedExpectation, type ConversationVerdict, type Expectation } from './check-conversations';
import { ConversationWorkload, type WorkloadConversation, type WorkloadOptions } from './conversation-workload';
import { connectLibraryClient, type LibraryClient } from './host-library';
import { leftoverProcesses } from './process-leaks';
import { reExecutions } from './tool-log';
import type { WorkloadShape } from './turn-plan';
import { WorkerFleet, type FleetOptions } from './worker-fleet';

/** How long one turn may take before the suite calls the conversation stuck. */
const SEND_DEADLINE_MS = 5 * 60_000;
/** Problems listed per result: enough to debug, not a wall of text. */
const MAX_PROBLEMS = 20;

/** A scenario's running parts. */
export interface ScenarioRig {
  /** Unique in the suite's run: names conversations, tool texts and the task queue. */
  run: string;
  dir: string;
  model: ChaosModel;
  client: LibraryClient;
  fleet: WorkerFleet;
  /** The environment an `mcp-host` process needs to reach this rig's conversations. */
  cliEnv: Record<string, string>;
  /** A workload of planned conversations on this rig; `cliTurns` picks turns sent by the `mcp-host` CLI. */
  workload(
    options?: Partial<Pick<WorkloadOptions, 'concurrency' | 'conversationOptions' | 'judgeTurn' | 'beforeTurn' | 'sendDeadlineMs'>> & { cliTurns?: (turn: number) => boolean },
  ): ConversationWorkload;
  /**
   * Checks the workload's conversations (against their plans, or `expect`), stops the workers, the
   * model and the client, looks for processes left behind, and adds it all to `result`. Returns the
   * verdicts (for kill analysis).
   */
  finish(workload: ConversationWorkload, result: FaultResult, expect?: (conversation: WorkloadConversation) => Expectation | Promise<Expectation>): Promise<ConversationVerdict[]>;
  /** Closes everything (idempotent; `finish` calls it). */
  close(): Promise<void>;
}

/** Starts a rig with one worker running. */
export async function startScenarioRig(
  context: ScenarioContext,
  tag: string,
  fleetOptions: Pick<FleetOptions, 'extraServers' | 'env'> = {},
  shape: WorkloadShape = context.profile.shape,
): Promise<ScenarioRig> {
  const run = `${tag}${randomBytes(3).toString('hex')}`;
  const dir = path.join(context.dir, run);
  fs.mkdirSync(dir, { recursive: true });
  const taskQueue = `chaos-${run}`;
  const { modelMs, concurrency } = context.profile;
  const closers: Array<() => Promise<void>> = [];
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      for (const closer of closers.reverse()) await closer().catch((err: unknown) => context.log(`close: ${String(err)}`));
    })();
    return closed;
  };
  try {
    const model = await startChaosModel(shape, modelMs);
    closers.push(() => model.close());
    const client = await connectLibraryClient(context.workerRoot, context.temporal.address, taskQueue);
    closers.push(() => client.close());
    const fleet = new WorkerFleet({
      address: context.temporal.address,
      taskQueue,
      claudeBaseUrl: model.fake.url,
      dir,
      ...(context.workerRoot !== undefined ? { root: context.workerRoot } : {}),
      ...fleetOptions,
    });
    closers.push(() => fleet.stopAll());
    await fleet.spawn();
    const cliEnv = { TEMPORAL_ADDRESS: context.temporal.address, MCP_HOST_TASK_QUEUE: taskQueue };
    return {
      run,
      dir,
      model,
      client,
      fleet,
      cliEnv,
      workload: ({ cliTurns, ...options } = {}) =>
        new ConversationWorkload({
          client,
          run,
          shape,
          concurrency,
          sendDeadlineMs: SEND_DEADLINE_MS,
          ...(cliTurns
            ? { cli: { turns: cliTurns, root: context.workerRoot, env: cliEnv } }
            : {}),
          ...options,
        }),
      finish: async (workload, result, expect) => {
        let verdicts: ConversationVerdict[] = [];
        try {
          verdicts = await checkConversations(client, workload.conversations, expect ?? ((c) => plannedExpectation(shape, run, c)));
        } finally {
          await close();
        }
        result.runs += 1;
        result.conversations += verdicts.length;
        for (const verdict of verdicts) {
          result.exact += verdict.exact ? 1 : 0;
          result.lost += verdict.lost;
          result.duplicated += verdict.duplicated;
          for (const problem of verdict.problems) {
            if (result.problems.length < MAX_PROBLEMS) result.problems.push(`${verdict.conversation.id}: ${problem}`);
          }
        }
        result.toolReExecutions += reExecutions(fleet.labLogs(), `${run}.`);
        for (const leftover of await leftoverProcesses(dir)) result.problems.push(`left behind: ${leftover}`);
        return verdicts;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
