import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/** What a workflow's recorded history weighs, over every run of its continue-as-new chain. */
export interface HistorySize {
  /** The serialized `History` protobuf: every event with its payloads, as stored and replayed. */
  bytes: number;
  events: number;
  /** The server's own count (`historySizeBytes`, summed over runs): what its 50 MB limit checks. */
  serverBytes: number;
  /** Runs in the chain (1 unless the workflow continued as new). */
  runs: number;
  /** The largest single run: the figure the server's per-run limits apply to. */
  largestRunBytes: number;
  /** `ActivityTaskScheduled` events of the Claude activity: model calls the history recorded. */
  modelCalls: number;
}

/** Events per page: a page of the naive design's largest events stays well inside the channel's limit. */
const PAGE_EVENTS = 50;

async function measureRun(client: Client, workflowId: string, runId: string): Promise<HistorySize & { next?: string }> {
  const size: HistorySize & { next?: string } = { bytes: 0, events: 0, serverBytes: 0, runs: 1, largestRunBytes: 0, modelCalls: 0 };
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.getWorkflowExecutionHistory({
      namespace: client.options.namespace,
      execution: { workflowId, runId },
      maximumPageSize: PAGE_EVENTS,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    const events = page.history?.events ?? [];
    // `History` is one repeated field, so the pages' encodings add up to the whole history's.
    size.bytes += temporal.api.history.v1.History.encode({ events }).finish().length;
    size.events += events.length;
    for (const event of events) {
      if (event.activityTaskScheduledEventAttributes?.activityType?.name?.startsWith('callClaude') === true) size.modelCalls += 1;
      const next = event.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
      if (next) size.next = next;
    }
    nextPageToken = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
  } while (nextPageToken);
  size.largestRunBytes = size.bytes;
  size.serverBytes = (await client.workflow.getHandle(workflowId, runId).describe()).historySize ?? 0;
  return size;
}

/** Measures a workflow's whole history, following continue-as-new from its first run. */
export async function historySize(client: Client, workflowId: string, firstRunId: string): Promise<HistorySize> {
  const total: HistorySize = { bytes: 0, events: 0, serverBytes: 0, runs: 0, largestRunBytes: 0, modelCalls: 0 };
  let runId: string | undefined = firstRunId;
  while (runId) {
    const run = await measureRun(client, workflowId, runId);
    total.bytes += run.bytes;
    total.events += run.events;
    total.serverBytes += run.serverBytes;
    total.runs += 1;
    total.largestRunBytes = Math.max(total.largestRunBytes, run.bytes);
    total.modelCalls += run.modelCalls;
    runId = run.next;
  }
  return total;
}
