/**
 * Where a workflow's time went, from its recorded history: per activity type the median time from
 * scheduled to started (waiting for a worker) and from started to completed (the attempt, with its
 * result's way back), and the median workflow task (scheduled to completed). Event times are the
 * server's clock.
 */
import type { Client } from '@temporalio/client';
import { temporal, type google } from '@temporalio/proto';
import { median } from '../median';

const EventType = temporal.api.enums.v1.EventType;

export interface Breakdown {
  /** Activity type → medians in ms and how many. */
  activities: Map<string, { queued: number; run: number; count: number }>;
  workflowTaskMs: number;
  /** The workflow task's median wait for a poll (scheduled → started) and the worker's part (started → completed). */
  workflowTaskQueuedMs: number;
  workflowTaskRunMs: number;
  workflowTasks: number;
}

function ms(t: google.protobuf.ITimestamp | null | undefined): number {
  return Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
}

export async function historyBreakdown(client: Client, workflowId: string): Promise<Breakdown> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const scheduled = new Map<number, { type: string; at: number }>();
  const started = new Map<number, number>();
  const runs = new Map<string, { queued: number[]; run: number[] }>();
  const wftScheduled = new Map<number, number>();
  const wftStarted = new Map<number, number>();
  const wft: number[] = [];
  const wftQueued: number[] = [];
  const wftRun: number[] = [];
  for (const event of history.events ?? []) {
    const id = Number(event.eventId ?? 0);
    const at = ms(event.eventTime);
    switch (event.eventType) {
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        scheduled.set(id, { type: event.activityTaskScheduledEventAttributes?.activityType?.name ?? '?', at });
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        started.set(Number(event.activityTaskStartedEventAttributes?.scheduledEventId ?? 0), at);
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const sid = Number(event.activityTaskCompletedEventAttributes?.scheduledEventId ?? 0);
        const s = scheduled.get(sid);
        const st = started.get(sid);
        if (!s || st === undefined) break;
        const entry = runs.get(s.type) ?? { queued: [], run: [] };
        entry.queued.push(st - s.at);
        entry.run.push(at - st);
        runs.set(s.type, entry);
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
        wftScheduled.set(id, at);
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
        wftStarted.set(Number(event.workflowTaskStartedEventAttributes?.scheduledEventId ?? 0), at);
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED: {
        const sid = Number(event.workflowTaskCompletedEventAttributes?.scheduledEventId ?? 0);
        const s = wftScheduled.get(sid);
        const st = wftStarted.get(sid);
        if (s !== undefined) wft.push(at - s);
        if (s !== undefined && st !== undefined) {
          wftQueued.push(st - s);
          wftRun.push(at - st);
        }
        break;
      }
      default:
        break;
    }
  }
  const activities = new Map<string, { queued: number; run: number; count: number }>();
  for (const [type, entry] of runs) activities.set(type, { queued: median(entry.queued), run: median(entry.run), count: entry.run.length });
  const med = (values: number[]): number => (values.length > 0 ? median(values) : 0);
  return { activities, workflowTaskMs: med(wft), workflowTaskQueuedMs: med(wftQueued), workflowTaskRunMs: med(wftRun), workflowTasks: wft.length };
}
