/**
 * Activity stubs with their timeouts and retry policies: one deliberate decision per activity.
 * Non-retryable cases are marked by the activities' error classifier, not here.
 */
import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { ConversationActivities } from '../activities/types';
import type { ConversationOptions, ToolRoute } from '../conversation/types';

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

/** Attempts for a tool whose server did not promise idempotence (MCP `idempotentHint`). */
const NON_IDEMPOTENT_ATTEMPTS = 3;
const IDEMPOTENT_ATTEMPTS = 6;

/** A tool call: the server's timeout, heartbeats, and bounded attempts unless idempotent. */
export function toolActivities(route: ToolRoute, options: ConversationOptions): Pick<ConversationActivities, 'callTool'> {
  const activityOptions: ActivityOptions = {
    // The MCP request has its own timeout (route.timeoutMs); this one also covers a reconnect.
    startToCloseTimeout: route.timeoutMs + 30_000,
    heartbeatTimeout: options.toolHeartbeatTimeoutMs,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '20 seconds',
      maximumAttempts: route.idempotent ? IDEMPOTENT_ATTEMPTS : NON_IDEMPOTENT_ATTEMPTS,
    },
  };
  return proxyActivities<ConversationActivities>(activityOptions);
}
