import type { History } from '@temporalio/common/lib/proto-utils';

/**
 * The activity types a workflow history schedules, in order: the part of the command sequence a
 * conversation's recording is about (retries of one activity do not add entries).
 */
export function scheduledActivityTypes(history: History): string[] {
  return (history.events ?? []).flatMap((event) => {
    const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
    return name ? [name] : [];
  });
}
