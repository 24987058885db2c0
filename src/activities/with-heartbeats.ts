import { Context } from '@temporalio/activity';

/**
 * Heartbeats every second while `work` is in flight, so a dead worker is noticed within the
 * activity's heartbeat timeout, and Temporal's cancellation reaches the activity.
 */
export async function withHeartbeats<T>(work: Promise<T>): Promise<T> {
  const context = Context.current();
  const timer = setInterval(() => context.heartbeat(), 1000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
