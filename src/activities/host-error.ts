/**
 * An error the host raises itself, already decided: its dotted type and whether another attempt can help.
 * The classifier turns it into an `ApplicationFailure` unchanged.
 */
export class HostError extends Error {
  constructor(
    message: string,
    readonly type: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'HostError';
  }
}
