/**
 * The gauges of the task queue's conversations (open, with a turn running, waiting for an approval,
 * waiting for input), counted in the visibility store by the worker at each export interval.
 *
 * Why not count them in the workflows: a gauge kept by the workflows themselves (+1 when a wait
 * starts, −1 when it ends) lives in the memory of whichever worker ran that task, so a worker that
 * restarts loses its part and the sum drifts for good; the workflow metric meter has no up-down
 * counter either. The search attributes the workflows already keep (src/workflows/progress.ts) are
 * the durable truth, and a count of them is right whatever worker died. The price: visibility lags
 * by a second or so, each worker reports the same numbers (take the max across workers, not the
 * sum), and the three gauges besides `open` need the namespace's `McpHost*` attributes.
 */
import type { Client } from '@temporalio/client';
import { progressAttributesRegistered, waitingInputAttributeRegistered } from '../client/progress-attributes';
import { STATE_ATTRIBUTE, WAITING_APPROVAL_ATTRIBUTE, WAITING_INPUT_ATTRIBUTE } from '../workflows/progress-attributes';
import type { ConversationCounts, HostMetrics } from './host-metrics';

/** The conversation workflow's type name (the function's name, as the client starts it). */
const CONVERSATION_TYPE = 'conversationWorkflow';

/** The visibility queries of the gauges, for one task queue. */
export function gaugeQueries(taskQueue: string, attributes: { progress: boolean; waitingInput: boolean }): Partial<Record<keyof ConversationCounts, string>> {
  if (/["'\\]/.test(taskQueue)) throw new Error(`a task queue with quotes or backslashes cannot be counted: ${taskQueue}`);
  const open = [`WorkflowType = '${CONVERSATION_TYPE}'`, `ExecutionStatus = 'Running'`, `TaskQueue = '${taskQueue}'`].join(' AND ');
  return {
    open,
    ...(attributes.progress
      ? {
          turnsRunning: `${open} AND ${STATE_ATTRIBUTE.name} = 'running'`,
          approvalsWaiting: `${open} AND ${WAITING_APPROVAL_ATTRIBUTE.name} = true`,
        }
      : {}),
    ...(attributes.waitingInput ? { inputsWaiting: `${open} AND ${WAITING_INPUT_ATTRIBUTE.name} = true` } : {}),
  };
}

/** Counts the gauges once. */
export async function countConversations(client: Client, taskQueue: string): Promise<ConversationCounts> {
  const queries = gaugeQueries(taskQueue, {
    progress: await progressAttributesRegistered(client),
    waitingInput: await waitingInputAttributeRegistered(client),
  });
  const entries = await Promise.all(Object.entries(queries).map(async ([name, query]) => [name, (await client.workflow.count(query)).count] as const));
  const counts = Object.fromEntries(entries) as Partial<ConversationCounts>;
  return { open: counts.open ?? 0, ...counts };
}

/** A running count: `stop()` ends it (and waits for a count under way). */
export interface GaugeCounter {
  stop(): Promise<void>;
}

/**
 * Counts the gauges now and every `intervalMs` until stopped. A failed count leaves the gauges as
 * they were and is reported through `log` once until a count succeeds again.
 */
export function startConversationGauges(options: {
  client: Client;
  namespace: string;
  taskQueue: string;
  metrics: HostMetrics;
  intervalMs: number;
  log: (line: string) => void;
}): GaugeCounter {
  let running: Promise<void> | undefined;
  let failing = false;
  const tick = (): void => {
    if (running !== undefined) return;
    running = countConversations(options.client, options.taskQueue)
      .then((counts) => {
        options.metrics.recordConversations(counts, { namespace: options.namespace, taskQueue: options.taskQueue });
        failing = false;
      })
      .catch((err: unknown) => {
        if (!failing) options.log(`metrics: counting conversations in visibility failed, the gauges keep their last values: ${err instanceof Error ? err.message : String(err)}`);
        failing = true;
      })
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);
  // The count never keeps the process alive.
  timer.unref();
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
