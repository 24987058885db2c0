/**
 * A conversation's recorded history across continue-as-new: every run, oldest first, with payloads
 * decoded by the project's data converter where the suite needs to read them.
 */
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { History } from '@temporalio/common/lib/proto-utils';
import { tsToMs } from '@temporalio/common/lib/time';
import { dataConverter } from '../../src/temporal/data-converter';

/** One event of a workflow history. */
export type HistoryEvent = NonNullable<History['events']>[number];

/** Every run of the workflow `workflowId`, oldest first (following each run's `continuedExecutionRunId`). */
export async function runHistories(client: Client, workflowId: string): Promise<HistoryEvent[][]> {
  const runs: HistoryEvent[][] = [];
  let runId: string | undefined;
  for (;;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    runs.unshift(events);
    const previous = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!previous) return runs;
    runId = previous;
  }
}

/** An event's time in ms since the epoch. */
export function eventTime(event: HistoryEvent): number {
  return tsToMs(event.eventTime);
}

/** The first payload of a list, decoded (codecs, then JSON), or undefined when there is none. */
export async function firstPayloadValue(payloads: readonly Payload[] | null | undefined): Promise<unknown> {
  let current = payloads?.[0];
  // Codecs decode in the reverse of the order they encode in.
  for (const codec of [...(dataConverter.payloadCodecs ?? [])].reverse()) {
    if (current) [current] = await codec.decode([current]);
  }
  return current ? defaultPayloadConverter.fromPayload(current) : undefined;
}

/** The pid in a worker identity (`pid@host`, the SDK's default), or undefined. */
export function identityPid(identity: string | null | undefined): number | undefined {
  const match = /^(\d+)@/.exec(identity ?? '');
  return match ? Number(match[1]) : undefined;
}
