/**
 * One conversation of each design, as the benchmark drives it: started with its first turn and
 * waited for (the host through the project's own `startConversation`, update-with-start, as
 * `mcp-host start --wait` does; the floor the same way), then ended. Returns the turn's latency.
 */
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { endConversation, startConversation } from '../../src/client/commands';
import { DEFAULTS } from '../../src/config/settings';
import type { FakeModel, Responder } from './fake-model';
import { floorEndSignal, floorTurnUpdate, floorWorkflow } from './floor-workflows';
import { userText } from '../turn-settings';

/** Request-shaping features off, as in the history benchmark: requests are the same in every design. */
export const REQUEST_AS_PLAIN = { promptCache: { enabled: false }, contextWindow: 1_000_000_000 } as const;

export interface TurnTiming {
  /** From sending the first turn to its answer. */
  turnMs: number;
  workflowId: string;
}

/** A host conversation of one turn whose model calls `responder` answers, `modelMs` each. */
export async function hostConversation(
  client: Client,
  taskQueue: string,
  model: FakeModel,
  tag: number,
  responder: Responder,
  options: { modelMs: number; maxIterations: number },
): Promise<TurnTiming> {
  model.play(tag, responder, options.modelMs);
  try {
    const started = performance.now();
    const { id, result } = await startConversation({ client, taskQueue }, userText(tag), {
      wait: true,
      defaultModel: DEFAULTS.model,
      conversation: { maxIterations: options.maxIterations, ...REQUEST_AS_PLAIN },
    });
    const turnMs = performance.now() - started;
    if (result?.status !== 'completed') throw new Error(`host turn ${tag}: ${result?.status ?? 'no result'} ${result?.error ?? ''}`);
    await endConversation(client, id);
    return { turnMs, workflowId: id };
  } finally {
    model.done(tag);
  }
}

/** A floor conversation of one turn of activities that wait `steps` milliseconds each. */
export async function floorConversation(client: Client, taskQueue: string, eager: boolean, steps: number[]): Promise<TurnTiming> {
  const workflowId = `floor-${randomUUID()}`;
  const started = performance.now();
  const operation = new WithStartWorkflowOperation(floorWorkflow, {
    taskQueue,
    workflowId,
    args: [{ eager }],
    workflowIdConflictPolicy: 'FAIL',
    workflowTaskTimeout: '10 seconds',
  });
  await client.workflow.executeUpdateWithStart(floorTurnUpdate, { args: [steps], startWorkflowOperation: operation });
  const turnMs = performance.now() - started;
  const handle = await operation.workflowHandle();
  await handle.signal(floorEndSignal);
  await handle.result();
  return { turnMs, workflowId };
}

/** The floor's steps for a host turn of `modelCalls` model calls with one tool call between each two. */
export function floorSteps(modelCalls: number, modelMs: number, toolMs: number): number[] {
  const steps = [0]; // the host's listTools at the start of a turn
  for (let i = 0; i < modelCalls; i++) {
    steps.push(modelMs);
    if (i < modelCalls - 1) steps.push(toolMs);
  }
  return steps;
}
