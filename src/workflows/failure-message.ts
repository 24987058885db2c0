import { ActivityFailure, ApplicationFailure, TemporalFailure } from '@temporalio/workflow';

/** The message of the innermost cause of an activity failure: what a person needs to read. */
export function failureMessage(err: unknown): string {
  let current: unknown = err;
  while (current instanceof ActivityFailure && current.cause) current = current.cause;
  if (current instanceof ApplicationFailure) return current.type ? `${current.type}: ${current.message}` : current.message;
  if (current instanceof TemporalFailure) return current.message;
  return current instanceof Error ? current.message : String(current);
}
