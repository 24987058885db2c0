import { Context } from '@temporalio/activity';

/**
 * Heartbeats every second while `work` is in flight, so a dead worker is noticed within the
 * activity's heartbeat timeout, and Temporal's cancellation reaches the activity. `beat` replaces
 * the plain heartbeat for an activity whose heartbeats carry details (a streaming Claude call's
 * text so far, `src/activities/publish-progress.ts`): one without them would erase them.
 */
export async function withHeartbeats<T>(work: Promise<T>, beat?: () => void): Promise<T> {
  const context = Context.current();
  const timer = setInterval(beat ?? (() => context.heartbeat()), 1000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
