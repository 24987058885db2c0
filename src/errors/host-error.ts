import type { HostFailureType, McpFailureType } from './failure-types';

/**
 * An error the host raises itself, already decided: its dotted type and whether another attempt can help.
 * The classifier turns it into an `ApplicationFailure` unchanged. Only the host's own types are
 * allowed here: `claude.*` failures come from the Anthropic SDK's errors, through the classifier.
 */
export class HostError extends Error {
  override readonly name = 'HostError';

  /**
   * @param message What went wrong, for the workflow's failure message and the Web UI (never a secret).
   * @param type The failure type (see {@link McpFailureType}, {@link HostFailureType}).
   * @param retryable Whether another attempt can help.
   */
  constructor(
    message: string,
    readonly type: McpFailureType | HostFailureType,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
