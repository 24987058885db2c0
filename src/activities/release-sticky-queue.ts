import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';

/**
 * Wraps an activity so that a retried attempt (attempt 2 or later: most often the first one was
 * lost with its worker) frees its workflow from the sticky queue of the worker that ran the
 * workflow's last task. Without this, the workflow task that follows this attempt's result is first
 * offered on that queue, and when that worker is dead it waits there the sticky schedule-to-start
 * timeout (measured: the whole "handoff" after a kill, bench/failover.ts) before any live worker may
 * take it. Reset, it goes to the task queue at once; whichever worker takes it replays the history
 * (tens of milliseconds). A retry on a live worker (a 429, say) costs that one replay, nothing else.
 *
 * The reset is done before the work starts. The work may itself need the workflow: a Claude call on
 * a worker without the transcript queries it, and the server sends a query to the workflow's
 * sticky queue first, waiting the sticky schedule-to-start timeout there before trying the task
 * queue (measured in `npm run chaos -- --profile long` with the reset beside the work: a killed
 * Claude call resumed after a median 7.4–7.8 s, a tool call after 5.6–5.8 s). A reset that fails
 * (an old server, a network blip) changes nothing but the wait, so it is ignored.
 */
export function releasingStickyQueueOnRetry<A extends unknown[], R>(temporal: Client, activity: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    const { attempt, isLocal, workflowNamespace, workflowExecution } = Context.current().info;
    // A local activity (a fast tool) retries on the worker that holds its workflow task: nothing to free.
    if (attempt <= 1 || isLocal || workflowNamespace === undefined || workflowExecution === undefined) return activity(...args);
    await temporal.workflowService.resetStickyTaskQueue({ namespace: workflowNamespace, execution: workflowExecution }).then(
      () => undefined,
      () => undefined,
    );
    return activity(...args);
  };
}
