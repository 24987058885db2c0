/**
 * What the Temporal Web UI shows of a conversation, read through the same APIs the UI uses: the
 * activities' summaries (user metadata of their scheduled events), the current details (the
 * built-in `__temporal_workflow_metadata` query), search attributes and memo (describe).
 */
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

/** `[activity type, summary]` of every scheduled activity, in history order. */
export async function activitySummaries(handle: WorkflowHandle): Promise<Array<[string, string | undefined]>> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((event): Array<[string, string | undefined]> => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (!scheduled) return [];
    const summary = event.userMetadata?.summary;
    return [[scheduled.activityType?.name ?? '', summary ? defaultPayloadConverter.fromPayload<string>(summary) : undefined]];
  });
}

/** The workflow's current details as the Web UI reads them. */
export async function currentDetailsOf(handle: WorkflowHandle): Promise<string> {
  const metadata = await handle.query<temporal.api.sdk.v1.IWorkflowMetadata>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

/** Event type names of the history (`EVENT_TYPE_…`). */
export async function eventTypes(handle: WorkflowHandle): Promise<string[]> {
  const { temporal: proto } = await import('@temporalio/proto');
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((event) => proto.api.enums.v1.EventType[event.eventType ?? 0] ?? String(event.eventType));
}

/** The names of the search attributes each upsert event of the history sets, in order. */
export async function upsertedAttributes(handle: WorkflowHandle): Promise<string[][]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const fields = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
    return fields ? [Object.keys(fields).sort()] : [];
  });
}
