/**
 * Activity stubs with their timeouts and retry policies: one deliberate decision per activity.
 * Non-retryable cases are marked by the activities' error classifier, not here.
 */
import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { ConversationActivities } from '../activities/types';
import type { ConversationOptions, ToolRoute } from '../conversation/types';
import { TOOL_CALL_RETRY_POLICY, toolAttemptTimeouts } from '../errors/tool-retry-policy';

/** The Claude call: generous timeout, heartbeats detect a dead worker quickly, backoff for 429/529. */
export function claudeActivities(options: ConversationOptions): Pick<ConversationActivities, 'callClaude'> {
  return proxyActivities<ConversationActivities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: options.modelHeartbeatTimeoutMs,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
  });
}

/** The summariser: a Claude call like any other, so the same timeouts and retries. */
export function summaryActivities(options: ConversationOptions): Pick<ConversationActivities, 'summarizeContext'> {
  return proxyActivities<ConversationActivities>({
    startToCloseTimeout: '10 minutes',
    heartbeatTimeout: options.modelHeartbeatTimeoutMs,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
  });
}

/**
 * Tool listing: cheap and idempotent, so retried freely for a while. It heartbeats (connecting to
 * every server can take a while), so a lost worker is noticed as fast as in a tool call.
 */
export function catalogActivities(options: ConversationOptions): Pick<ConversationActivities, 'listTools'> {
  return proxyActivities<ConversationActivities>({
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: options.toolHeartbeatTimeoutMs,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
  });
}

/**
 * A tool call: heartbeats, and the tool retry policy (`src/errors/tool-retry-policy.ts`): no attempt
 * limit here, since an attempt lost with its worker is retried for as long as it takes, while the
 * activity itself bounds the tool's own failures.
 */
export function toolActivities(route: ToolRoute, options: ConversationOptions): Pick<ConversationActivities, 'callTool'> {
  const activityOptions: ActivityOptions = {
    startToCloseTimeout: toolAttemptTimeouts(route.timeoutMs).startToCloseMs,
    heartbeatTimeout: options.toolHeartbeatTimeoutMs,
    retry: TOOL_CALL_RETRY_POLICY,
  };
  return proxyActivities<ConversationActivities>(activityOptions);
}
