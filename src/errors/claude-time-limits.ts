/**
 * How long one Claude call may take, decided in one place (issue 9, issue 13 item 10). Pure, so the
 * workflow sizes the activity's timeouts from the same numbers the activity enforces.
 *
 * The call is streamed, so two limits bound it, and nothing below them cuts it (the HTTP agent's
 * own header and body timeouts are off, `src/claude/claude-http-agent.ts`):
 * - **stall**: no response headers, or no event of the stream (the API sends `ping` events while it
 *   works), for {@link DEFAULT_STALL_TIMEOUT_MS}: the connection or the API is stuck; nothing is
 *   being generated, so the call is cut and retried (`claude.stalled`, retryable).
 * - **total**: the answer is still coming after the time the longest answer `max_tokens` allows
 *   takes (the Anthropic SDK's own estimate: an hour for 128,000 tokens, at least 10 minutes): cut
 *   and not retried (`claude.timeout`), since a retry would pay for the same long answer again.
 * The activity's start-to-close timeout is the total plus a margin, so Temporal's timeout (which it
 * would retry) never fires first; its heartbeat (every second while the call waits or streams) is
 * what detects a lost worker.
 */

/** No headers and no stream event for this long: the call is cut and retried. */
export const DEFAULT_STALL_TIMEOUT_MS = 3 * 60 * 1000;

/** The least total time a call gets, whatever its `max_tokens` (the SDK's default timeout). */
const MIN_TOTAL_MS = 10 * 60 * 1000;
/** The SDK's estimate of the slowest generation: an hour for 128,000 output tokens. */
const MS_PER_128K_TOKENS = 60 * 60 * 1000;
/** Reading the transcript, the request's upload and the last events, beyond the generation itself. */
const ACTIVITY_MARGIN_MS = 2 * 60 * 1000;

/** The two limits of one call. */
export interface ClaudeCallLimits {
  stallTimeoutMs: number;
  totalTimeoutMs: number;
}

/** The longest a generation of `maxTokens` output tokens may take. */
export function generationTimeoutMs(maxTokens: number): number {
  return Math.max(MIN_TOTAL_MS, Math.ceil((MS_PER_128K_TOKENS * maxTokens) / 128_000));
}

/** The limits of a call with this `max_tokens`; a worker may set either (tests set short ones). */
export function claudeCallLimits(maxTokens: number, overrides: Partial<ClaudeCallLimits> = {}): ClaudeCallLimits {
  return {
    stallTimeoutMs: overrides.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    totalTimeoutMs: overrides.totalTimeoutMs ?? generationTimeoutMs(maxTokens),
  };
}

/** The start-to-close timeout of a Claude call's activity: beyond the call's own total limit. */
export function claudeActivityTimeoutMs(maxTokens: number): number {
  return generationTimeoutMs(maxTokens) + ACTIVITY_MARGIN_MS;
}

/** A Claude call cut by one of its limits (the classifier makes it `claude.stalled` or `claude.timeout`). */
export class ClaudeTimeLimitError extends Error {
  override readonly name = 'ClaudeTimeLimitError';

  constructor(
    readonly limit: 'stall' | 'total',
    readonly limitMs: number,
  ) {
    super(
      limit === 'stall'
        ? `no answer from the Claude API for ${limitMs / 1000} s (no response, or a stream that stopped): cut, to be retried`
        : `the Claude answer was still coming after ${limitMs / 1000} s, the limit for its max_tokens: cut, not retried`,
    );
  }
}
