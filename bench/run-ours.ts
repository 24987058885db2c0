import { randomUUID } from 'node:crypto';
import { conversationOptions } from '../src/client/conversation-options';
import { conversationWorkflow } from '../src/workflows';
import { endSignal, sendMessageUpdate } from '../src/workflows/definitions';
import type { BenchRig } from './bench-rig';
import { withDeadline } from './deadline';
import { historySize } from './history-size';
import type { RunOutcome } from './run-outcome';
import { scriptedTurn } from './scripted-turn';
import { runDeadlineMs, userText } from './turn-settings';

/**
 * Two features that shape only the request, never the history, turned off so that both designs
 * send Claude byte-identical requests (which the script checks): prompt-caching breakpoints, and
 * the context guard (given a window no benchmark conversation reaches, it never compacts).
 */
const REQUEST_AS_NAIVE = { promptCache: { enabled: false }, contextWindow: 1_000_000_000 } as const;

/**
 * The measured turn stays in one run: a conversation continues as new at its end once the run has
 * 1,000 events (the default since 1154c2c), and the new run's input carries the transcript, which
 * is not what a model call adds. Growth across runs is the server's concern, not a call's.
 */
const ONE_RUN = { continueAsNewAfterEvents: 1_000_000 } as const;

/**
 * One user turn of `calls` model calls through the real conversation workflow (Claude gets a
 * transcript reference), ended and measured.
 */
export async function runOurs(rig: BenchRig, calls: number, tag: number): Promise<RunOutcome> {
  const turn = scriptedTurn(calls);
  rig.play(tag, turn, calls);
  const started = Date.now();
  const workflowId = `bench-ours-${calls}-${randomUUID()}`;
  const handle = await rig.client.workflow.start(conversationWorkflow, {
    taskQueue: rig.oursTaskQueue,
    workflowId,
    args: [{ options: conversationOptions({ maxIterations: calls, ...REQUEST_AS_NAIVE, ...ONE_RUN }) }],
  });
  let ended = 'completed';
  try {
    const result = await withDeadline(
      handle.executeUpdate(sendMessageUpdate, { args: [userText(tag)] }),
      runDeadlineMs(calls),
      `ours, ${calls} calls`,
    );
    if (result.status !== 'completed') ended = `turn ${result.status}: ${result.error ?? ''}`;
    await handle.signal(endSignal);
    await withDeadline(handle.result(), 60_000, `ours, ${calls} calls, ending`);
  } catch (err) {
    ended = err instanceof Error ? err.message : String(err);
    await handle.terminate('benchmark run failed').catch(() => undefined);
  }
  const ms = Date.now() - started;
  return { design: 'ours', calls, ended, probe: turn.probe, ms, ...(await historySize(rig.client, workflowId, handle.firstExecutionRunId)) };
}
