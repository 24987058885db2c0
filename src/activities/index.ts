/**
 * The worker's activities, built by a factory from their dependencies so tests can inject their
 * own (a fake Messages API URL, a set of MCP servers).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import { serverSecrets } from '../mcp/config/server-secrets';
import type { McpConnections } from '../mcp/mcp-connections';
import { ToolCatalogCache } from '../mcp/tool-catalog';
import type { ClaudeCallLimits } from '../errors/claude-time-limits';
import type { LivePublishing } from '../live/live-channel';
import { createCallClaude, type ClaudeTextDelta } from './call-claude';
import { createCallTool } from './call-tool';
import { createCountTokens } from './count-tokens';
import { callAsker } from './call-inputs';
import { createListTools } from './list-tools';
import { releasingStickyQueueOnRetry } from './release-sticky-queue';
import { createSampleMessage } from './sample-message';
import { createUseResources } from './use-resources';
import { createSummarizeContext } from './summarize-context';
import { TranscriptReader } from './transcript-reader';
import type { ConversationActivities } from './types';
import { withClaudeFailureDelays } from './with-claude-failure-delays';
import { withRedactedFailures } from './with-redacted-failures';
import { HostMetrics } from '../telemetry/host-metrics';
import { meteredActivities } from '../telemetry/metered-activities';
import { tracedActivities } from '../telemetry/traced-activities';

/** Everything the activities reach: secrets live here, in the worker, never in a payload. */
export interface ActivityDeps {
  claude: Anthropic;
  /** A Temporal client, used to read transcripts from the workflows (queries). */
  temporal: Client;
  mcp: McpConnections;
  maxResultChars?: number;
  /** Overrides of the Claude call's time limits (default: `src/errors/claude-time-limits.ts`). */
  claudeLimits?: Partial<ClaudeCallLimits>;
  /** Sees each answer's text as Claude writes it (worker-side; never in a result or the history). */
  onClaudeTextDelta?: (delta: ClaudeTextDelta) => void;
  /** False when the endpoint has no token-counting endpoint (the offline stand-in): `countTokens` is skipped. */
  countTokens?: boolean;
  /** Where the Claude, tool and transcript-cache metrics go (default: nowhere; src/telemetry). */
  metrics?: HostMetrics;
  /**
   * The live channel (`MCP_HOST_LIVE_URL`, src/live/): Claude calls publish each piece of their
   * answer to it at once while someone follows (default: none, heartbeats only).
   */
  live?: LivePublishing;
}

/** The secret values this worker holds: the Claude credential and every MCP server's (see `serverSecrets`). */
function workerSecrets(deps: ActivityDeps): string[] {
  const claude = [deps.claude.apiKey, deps.claude.authToken].filter((value): value is string => typeof value === 'string');
  return [...claude, ...deps.mcp.list().flatMap(serverSecrets)];
}

/**
 * Creates the activities of the conversation workflow. What they throw is redacted of the worker's
 * secrets before it reaches the history or, as the host's `is_error` results, Claude. A Claude
 * call's retryable failures name their own backoff (`with-claude-failure-delays.ts`). A retried
 * attempt frees its workflow from a (likely dead) worker's sticky queue (`release-sticky-queue.ts`).
 */
export function createActivities(deps: ActivityDeps): ConversationActivities {
  const metrics = deps.metrics ?? HostMetrics.off;
  const transcripts = new TranscriptReader(deps.temporal, { onRead: (hit) => metrics.recordTranscriptRead(hit) });
  const secrets = workerSecrets(deps);
  const released = <A extends unknown[], R>(activity: (...args: A) => Promise<R>): ((...args: A) => Promise<R>) =>
    releasingStickyQueueOnRetry(deps.temporal, activity);
  // Traced and measured outermost (src/telemetry/traced-activities.ts, metered-activities.ts): each
  // attempt's whole time, its failure as Temporal records it.
  return tracedActivities(meteredActivities(metrics, {
    callClaude: released(
      withClaudeFailureDelays(
        withRedactedFailures(
          createCallClaude({
            claude: deps.claude,
            transcripts,
            ...(deps.claudeLimits !== undefined ? { limits: deps.claudeLimits } : {}),
            ...(deps.onClaudeTextDelta !== undefined ? { onTextDelta: deps.onClaudeTextDelta } : {}),
            ...(deps.live !== undefined ? { live: deps.live } : {}),
          }),
          secrets,
        ),
      ),
    ),
    summarizeContext: released(withClaudeFailureDelays(withRedactedFailures(createSummarizeContext({ claude: deps.claude, transcripts }), secrets))),
    countTokens: released(withRedactedFailures(createCountTokens({ claude: deps.claude, transcripts, enabled: deps.countTokens !== false }), secrets)),
    sampleMessage: released(withClaudeFailureDelays(withRedactedFailures(createSampleMessage({ claude: deps.claude }), secrets))),
    listTools: released(withRedactedFailures(createListTools(new ToolCatalogCache(deps.mcp)), secrets)),
    useResources: released(
      withRedactedFailures(
        createUseResources({ connections: deps.mcp, ...(deps.maxResultChars !== undefined ? { maxResultChars: deps.maxResultChars } : {}) }),
        secrets,
      ),
    ),
    callTool: released(
      withRedactedFailures(
        createCallTool({
          connections: deps.mcp,
          asker: (context, input, maxWaitMs) => callAsker(deps.temporal, context, input, maxWaitMs),
          ...(deps.maxResultChars !== undefined ? { maxResultChars: deps.maxResultChars } : {}),
        }),
        secrets,
      ),
    ),
  }));
}

export type { ConversationActivities } from './types';
export type { ClaudeTextDelta } from './call-claude';
