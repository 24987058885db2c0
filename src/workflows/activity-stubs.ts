/**
 * Activity stubs with their timeouts and retry policies: one deliberate decision per activity.
 * Non-retryable cases are marked by the activities' error classifier, not here.
 *
 * Every call carries a one-line summary the Web UI shows in the event list
 * (`get_weather {"city":"北京"} · weather`, `claude round 3 · after tool_use ×2 · …`,
 * `list tools: 2 servers, 211 tools`), and tells the progress module what runs, for the current
 * details (src/workflows/progress.ts). A summary is user metadata: it does not change the
 * commands, so recorded histories replay unchanged.
 */
import { proxyActivities, proxyLocalActivities, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import type { ConversationActivities } from '../activities/types';
import type { ConversationOptions, ToolRoute } from '../conversation/types';
import { CLAUDE_CALL_RETRY_POLICY } from '../errors/claude-retry-policy';
import { claudeActivityTimeoutMs } from '../errors/claude-time-limits';
import { fastToolCallRetryPolicy, TOOL_CALL_RETRY_POLICY, toolAttemptTimeouts } from '../errors/tool-retry-policy';
import { noteActivity, noteToolCall, trackedState } from './progress';
import { claudeCallSummary, listToolsSummary, summarizeSummary, toolCallSummary } from './progress-text';

/**
 * A Claude call's options: start-to-close beyond the call's own time limits for its max_tokens
 * (`src/errors/claude-time-limits.ts`: the activity cuts a stalled or over-long call itself, typed),
 * so Temporal's timeout never fires first. A timeout is not part of the commands a replay compares.
 */
function claudeCallOptions(options: ConversationOptions): ActivityOptions {
  return {
    startToCloseTimeout: claudeActivityTimeoutMs(options.maxTokens),
    heartbeatTimeout: options.modelHeartbeatTimeoutMs,
    retry: CLAUDE_CALL_RETRY_POLICY,
  };
}

/**
 * The Claude call: timeouts from its max_tokens, heartbeats detect a dead worker quickly, the
 * retries of `src/errors/claude-retry-policy.ts` (a lost attempt at once, backoff for 429/529).
 */
export function claudeActivities(options: ConversationOptions): Pick<ConversationActivities, 'callClaude'> {
  return {
    callClaude: (input) => {
      const summary = claudeCallSummary(trackedState()?.messages, input.model);
      const reply = proxyActivities<ConversationActivities>({ ...claudeCallOptions(options), summary }).callClaude(input);
      noteActivity(`asking Claude (${summary})`);
      return reply;
    },
  };
}

/** The summariser: a Claude call like any other, so the same timeouts and retries. */
export function summaryActivities(options: ConversationOptions): Pick<ConversationActivities, 'summarizeContext'> {
  return {
    summarizeContext: (input) => {
      const summary = summarizeSummary(input.transcript.messageCount, input.keepRecentTurns);
      const summarized = proxyActivities<ConversationActivities>({ ...claudeCallOptions(options), summary }).summarizeContext(input);
      noteActivity(summary);
      return summarized;
    },
  };
}

/**
 * The token count of the next request (the guard's, for a large tool result): a quick read, so a
 * short timeout and three attempts; failing, the guard keeps its estimate (run-turn.ts).
 */
export function countActivities(): Pick<ConversationActivities, 'countTokens'> {
  return {
    countTokens: (input) => {
      const summary = `count tokens of the next request (${input.transcript.messageCount} messages)`;
      const counted = proxyActivities<ConversationActivities>({
        startToCloseTimeout: '30 seconds',
        retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
        summary,
      }).countTokens(input);
      noteActivity(summary);
      return counted;
    },
  };
}

/**
 * A server's sampling request answered by Claude: a Claude call like any other, so the same
 * retries; its timeouts from the larger of the conversation's max_tokens and the sampling cap,
 * since the activity's own time limit follows the max_tokens it sends (at most the cap).
 */
export function samplingActivities(options: ConversationOptions): Pick<ConversationActivities, 'sampleMessage'> {
  return {
    sampleMessage: (input) => {
      const summary = `sampling for server ${JSON.stringify(input.server)}`;
      const callOptions = claudeCallOptions({ ...options, maxTokens: Math.max(options.maxTokens, input.maxTokensCap) });
      const sampled = proxyActivities<ConversationActivities>({ ...callOptions, summary }).sampleMessage(input);
      noteActivity(summary);
      return sampled;
    },
  };
}

/**
 * Tool listing: cheap and idempotent, so retried freely for a while. It heartbeats (connecting to
 * every server can take a while), so a lost worker is noticed as fast as in a tool call.
 */
export function catalogActivities(options: ConversationOptions): Pick<ConversationActivities, 'listTools'> {
  return {
    listTools: (input) => {
      const summary = listToolsSummary(trackedState()?.catalog ?? null);
      const listed = proxyActivities<ConversationActivities>({
        startToCloseTimeout: '2 minutes',
        heartbeatTimeout: options.toolHeartbeatTimeoutMs,
        retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
        summary,
      }).listTools(input);
      // After the schedule command: a turn's first command stays the listing, whatever the progress upserts.
      noteActivity(summary);
      return listed;
    },
  };
}

/**
 * A call of the host's resource tools (src/mcp/resources/host-resource-tools.ts): read-only, so
 * retried freely for a while, like the listing; heartbeats notice a lost worker as fast. Shown like a
 * tool call in the Web UI and the current details.
 */
export function resourceActivities(route: ToolRoute, options: ConversationOptions): Pick<ConversationActivities, 'useResources'> {
  return {
    useResources: async (input) => {
      const summary = toolCallSummary({ server: route.server, tool: route.name, arguments: input.arguments });
      const call = proxyActivities<ConversationActivities>({
        startToCloseTimeout: '2 minutes',
        heartbeatTimeout: options.toolHeartbeatTimeoutMs,
        retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
        summary,
      }).useResources;
      noteToolCall(input.toolUseId, summary, true);
      try {
        return await call(input);
      } finally {
        noteToolCall(input.toolUseId, summary, false);
      }
    },
  };
}

/**
 * A tool call: heartbeats, and the tool retry policy (`src/errors/tool-retry-policy.ts`): no attempt
 * limit here, since an attempt lost with its worker is retried for as long as it takes, while the
 * activity itself bounds the tool's own failures.
 *
 * A fast tool (`route.fast`, mcp.json `fast` / `fastTools`) is called as a local activity instead,
 * with the fast retry policy of the same module. No patch: the route comes from the `listTools`
 * result recorded in the history (or the catalogue carried into a continued run), so a replay
 * schedules the call the way it was first scheduled.
 */
export function toolActivities(route: ToolRoute, options: ConversationOptions): Pick<ConversationActivities, 'callTool'> {
  return {
    callTool: async (input) => {
      const summary = toolCallSummary(input);
      const { startToCloseMs } = toolAttemptTimeouts(route.timeoutMs);
      const call =
        route.fast === true
          ? proxyLocalActivities<ConversationActivities>({
              startToCloseTimeout: startToCloseMs,
              retry: fastToolCallRetryPolicy(route.idempotent),
              summary,
            } satisfies LocalActivityOptions).callTool
          : proxyActivities<ConversationActivities>({
              startToCloseTimeout: startToCloseMs,
              heartbeatTimeout: options.toolHeartbeatTimeoutMs,
              retry: TOOL_CALL_RETRY_POLICY,
              summary,
            } satisfies ActivityOptions).callTool;
      noteToolCall(input.toolUseId, summary, true);
      try {
        return await call(input);
      } finally {
        noteToolCall(input.toolUseId, summary, false);
      }
    },
  };
}
