import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { conversationOptions } from '../src/client/conversation-options';
import type { BenchRig } from './bench-rig';
import { withDeadline } from './deadline';
import { historySize } from './history-size';
import type { naiveConversationWorkflow } from './naive/workflows';
import type { RunOutcome } from './run-outcome';
import { scriptedTurn } from './scripted-turn';
import { runDeadlineMs, userText } from './turn-settings';

/** Why the naive workflow did not complete: the server's termination reason is the finding. */
function whyNotCompleted(err: unknown): string {
  if (err instanceof WorkflowFailedError) {
    const cause = err.cause;
    return `${cause?.name ?? 'failed'}: ${cause?.message ?? err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * The same turn through the naive workflow (every Claude call takes the whole `messages` array as
 * its input), with or without the gzip codec, measured. A run the server cuts short at its history limit is a result, not an error.
 */
export async function runNaive(rig: BenchRig, calls: number, tag: number, design: 'naive' | 'naive-gzip'): Promise<RunOutcome> {
  const turn = scriptedTurn(calls);
  rig.play(tag, turn, calls);
  const started = Date.now();
  const workflowId = `bench-${design}-${calls}-${randomUUID()}`;
  const handle = await rig.client.workflow.start<typeof naiveConversationWorkflow>('naiveConversationWorkflow', {
    taskQueue: design === 'naive' ? rig.naiveTaskQueue : rig.naiveGzipTaskQueue,
    workflowId,
    args: [{ options: conversationOptions({ maxIterations: calls }), text: userText(tag) }],
  });
  let ended = 'completed';
  try {
    const result = await withDeadline(handle.result(), runDeadlineMs(calls), `${design}, ${calls} calls`);
    if (result.modelCalls !== calls) ended = `stopped after ${result.modelCalls} model calls`;
  } catch (err) {
    ended = whyNotCompleted(err);
    await handle.terminate('benchmark run failed').catch(() => undefined);
  }
  const ms = Date.now() - started;
  return { design, calls, ended, probe: turn.probe, ms, ...(await historySize(rig.client, workflowId, handle.firstExecutionRunId)) };
}
