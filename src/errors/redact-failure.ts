import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import { redactSecrets } from './redact-secrets';

/** Strings anywhere in a failure's details, redacted; everything else as it is. */
function redactedValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactedValue(item, secrets));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactedValue(item, secrets)]));
  }
  return value;
}

function redactedError(err: Error, secrets: readonly string[]): Error {
  if (err instanceof ApplicationFailure) {
    const details = err.details === undefined || err.details === null ? err.details : (redactedValue(err.details, secrets) as unknown[]);
    const cause = err.cause === undefined ? undefined : redactedError(err.cause, secrets);
    const copy = new ApplicationFailure(redactSecrets(err.message, secrets), err.type, err.nonRetryable, details, cause, err.nextRetryDelay, err.category);
    // The stack's first line repeats the message; the frames are kept for whoever debugs it.
    copy.stack = err.stack === undefined ? undefined : redactSecrets(err.stack, secrets);
    return copy;
  }
  // Temporal's own failures (a cancellation) carry no server's text.
  if (err instanceof TemporalFailure) return err;
  err.message = redactSecrets(err.message, secrets);
  if (err.stack !== undefined) err.stack = redactSecrets(err.stack, secrets);
  return err;
}

/**
 * What an activity throws, with its text redacted (`redactSecrets`): an `ApplicationFailure`'s
 * message, stack, string details and cause, the way Temporal records them in the history. Type,
 * retryability and retry delay are kept, so redaction never changes what is retried.
 */
export function redactFailure(err: unknown, secrets: readonly string[]): unknown {
  if (err instanceof Error) return redactedError(err, secrets);
  return typeof err === 'string' ? redactSecrets(err, secrets) : err;
}
