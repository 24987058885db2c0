/**
 * What a conversation's recorded history says happened: which tool calls were scheduled and
 * completed (by tool_use id), how many Claude calls completed, which updates were accepted, how
 * often activities were retried, and the time intervals during which the conversation was inside
 * a Claude call, a tool call, a workflow task or a continue-as-new — so a kill's moment can be
 * placed and the conversation's recovery measured.
 */
import { temporal } from '@temporalio/proto';
import type { CompletedTask } from './fault-impact';
import { eventTime, firstPayloadValue, type HistoryEvent } from './run-histories';

/** The kinds of moment a kill can land in. */
export type MomentKind =
  | 'Claude call'
  | 'tool call'
  | 'tool listing'
  | 'other activity'
  | 'workflow task'
  | 'continue-as-new'
  | 'update admission';

/** The moment kind of each activity type (the summariser is a Claude call too). */
const ACTIVITY_KINDS: Record<string, MomentKind> = {
  callClaude: 'Claude call',
  summarizeContext: 'Claude call',
  callTool: 'tool call',
  listTools: 'tool listing',
};

/** A stretch of time in one kind of moment; `to` is Infinity when the history never closed it. */
export interface Interval {
  kind: MomentKind;
  from: number;
  to: number;
}

/** The facts of one conversation's history. */
export interface HistoryFacts {
  /** Per tool_use id: times scheduled and completed (over all runs). */
  toolCalls: Map<string, { scheduled: number; completed: number }>;
  claudeCompleted: number;
  /** Activity attempts beyond the first (from the started events' attempt numbers). */
  activityRetries: number;
  workflowTaskTimeouts: number;
  /** Of those, tasks that timed out waiting on a worker's sticky queue (schedule-to-start); the rest timed out running. */
  stickyQueueTimeouts: number;
  /**
   * Per update argument (the turn's text): times accepted in all, the most in one run, and when
   * first. Temporal deduplicates an update id within a run only; a send repeated after a
   * continue-as-new is accepted again in the next run and answered from the turn's stored result
   * (src/conversation/accepted-turns.ts), which adds no turn.
   */
  updatesAccepted: Map<string, { count: number; mostInOneRun: number; at: number }>;
  updatesCompleted: number;
  continuedAsNew: number;
  /** Whether the last run completed. */
  completed: boolean;
  intervals: Interval[];
  /** Each workflow task completion: when, and the pid of the worker that completed it. */
  workflowTasksCompleted: CompletedTask[];
  /** Per workflow task that completed: ms from started to completed (the worker's processing; what the task timeout bounds). */
  workflowTaskRunMs: number[];
  /** Per workflow task started: ms from scheduled to started (its wait for a worker's poll). */
  workflowTaskWaitMs: number[];
}

async function toolUseIdOf(event: HistoryEvent): Promise<string | undefined> {
  const input = (await firstPayloadValue(event.activityTaskScheduledEventAttributes?.input?.payloads)) as { toolUseId?: unknown } | undefined;
  return typeof input?.toolUseId === 'string' ? input.toolUseId : undefined;
}

/** Reads the facts from every run of a conversation (oldest first). */
export async function historyFacts(runs: readonly HistoryEvent[][]): Promise<HistoryFacts> {
  const facts: HistoryFacts = {
    toolCalls: new Map(),
    claudeCompleted: 0,
    activityRetries: 0,
    workflowTaskTimeouts: 0,
    stickyQueueTimeouts: 0,
    updatesAccepted: new Map(),
    updatesCompleted: 0,
    continuedAsNew: 0,
    completed: false,
    intervals: [],
    workflowTasksCompleted: [],
    workflowTaskRunMs: [],
    workflowTaskWaitMs: [],
  };
  let canFrom: number | undefined;
  for (const events of runs) {
    const activities = new Map<string, { type: string; kind: MomentKind; from: number; toolUseId?: string }>();
    const workflowTasks = new Map<string, number>();
    const workflowTasksStarted = new Map<string, number>();
    let lastTaskScheduled = 0;
    let firstTaskCompleted = true;
    const acceptedInThisRun = new Map<string, number>();
    for (const event of events) {
      const at = eventTime(event);
      const id = String(event.eventId);
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled) {
        const type = scheduled.activityType?.name ?? '';
        const toolUseId = type === 'callTool' ? await toolUseIdOf(event) : undefined;
        activities.set(id, { type, kind: ACTIVITY_KINDS[type] ?? 'other activity', from: at, ...(toolUseId ? { toolUseId } : {}) });
        if (toolUseId) {
          const calls = facts.toolCalls.get(toolUseId) ?? { scheduled: 0, completed: 0 };
          calls.scheduled += 1;
          facts.toolCalls.set(toolUseId, calls);
        }
      }
      const attempt = event.activityTaskStartedEventAttributes?.attempt;
      if (attempt !== undefined && attempt !== null && attempt > 1) facts.activityRetries += attempt - 1;
      const closedActivity =
        event.activityTaskCompletedEventAttributes ?? event.activityTaskFailedEventAttributes ?? event.activityTaskTimedOutEventAttributes;
      if (closedActivity) {
        const activity = activities.get(String(closedActivity.scheduledEventId));
        if (activity) facts.intervals.push({ kind: activity.kind, from: activity.from, to: at });
        activities.delete(String(closedActivity.scheduledEventId));
        if (event.activityTaskCompletedEventAttributes && activity?.type === 'callClaude') facts.claudeCompleted += 1;
        if (event.activityTaskCompletedEventAttributes && activity?.toolUseId) {
          const calls = facts.toolCalls.get(activity.toolUseId);
          if (calls) calls.completed += 1;
        }
      }
      if (event.workflowTaskScheduledEventAttributes) {
        workflowTasks.set(id, at);
        lastTaskScheduled = at;
      }
      const startedTask = event.workflowTaskStartedEventAttributes;
      if (startedTask) {
        const scheduledAt = workflowTasks.get(String(startedTask.scheduledEventId));
        if (scheduledAt !== undefined) facts.workflowTaskWaitMs.push(at - scheduledAt);
        workflowTasksStarted.set(String(startedTask.scheduledEventId), at);
      }
      const closedTask =
        event.workflowTaskCompletedEventAttributes ?? event.workflowTaskTimedOutEventAttributes ?? event.workflowTaskFailedEventAttributes;
      if (closedTask) {
        const from = workflowTasks.get(String(closedTask.scheduledEventId));
        if (from !== undefined) facts.intervals.push({ kind: 'workflow task', from, to: at });
        workflowTasks.delete(String(closedTask.scheduledEventId));
      }
      if (event.workflowTaskTimedOutEventAttributes) {
        facts.workflowTaskTimeouts += 1;
        if (event.workflowTaskTimedOutEventAttributes.timeoutType === temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START) facts.stickyQueueTimeouts += 1;
      }
      if (event.workflowTaskCompletedEventAttributes) {
        const startedAt = workflowTasksStarted.get(String(event.workflowTaskCompletedEventAttributes.scheduledEventId));
        if (startedAt !== undefined) facts.workflowTaskRunMs.push(at - startedAt);
        facts.workflowTasksCompleted.push({ at, identity: event.workflowTaskCompletedEventAttributes.identity ?? '' });
        if (firstTaskCompleted && canFrom !== undefined) facts.intervals.push({ kind: 'continue-as-new', from: canFrom, to: at });
        firstTaskCompleted = false;
      }
      const accepted = event.workflowExecutionUpdateAcceptedEventAttributes;
      if (accepted) {
        const text = String(await firstPayloadValue(accepted.acceptedRequest?.input?.args?.payloads));
        const seen = facts.updatesAccepted.get(text);
        const inThisRun = (acceptedInThisRun.get(text) ?? 0) + 1;
        acceptedInThisRun.set(text, inThisRun);
        facts.updatesAccepted.set(text, {
          count: (seen?.count ?? 0) + 1,
          mostInOneRun: Math.max(seen?.mostInOneRun ?? 0, inThisRun),
          at: seen?.at ?? at,
        });
      }
      if (event.workflowExecutionUpdateCompletedEventAttributes) facts.updatesCompleted += 1;
      if (event.workflowExecutionContinuedAsNewEventAttributes) facts.continuedAsNew += 1;
      if (event.workflowExecutionCompletedEventAttributes) facts.completed = true;
    }
    // Still open when the history was read: open-ended.
    for (const activity of activities.values()) facts.intervals.push({ kind: activity.kind, from: activity.from, to: Infinity });
    for (const from of workflowTasks.values()) facts.intervals.push({ kind: 'workflow task', from, to: Infinity });
    canFrom = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes ? lastTaskScheduled : undefined;
  }
  return facts;
}
