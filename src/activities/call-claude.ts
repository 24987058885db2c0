import type Anthropic from '@anthropic-ai/sdk';
import { Context } from '@temporalio/activity';
import { streamMessage } from '../claude/stream-message';
import { buildClaudeRequest } from './claude-request';
import { trace } from '@opentelemetry/api';
import { capturedJson, contentCaptured } from '../telemetry/traced-activities';
import { claudeCallLimits, type ClaudeCallLimits } from '../errors/claude-time-limits';
import { classified } from '../errors/classify-error';
import type { LivePublishing } from '../live/live-channel';
import { LiveCallPublisher } from '../live/live-call';
import { ClaudeStreamPublisher, LIVE_PUBLISH_GAP_MS, PUBLISH_GAP_MS, QUIET_START_MS } from './publish-progress';
import { STREAM_WINDOW_CHARS } from './claude-stream-details';
import { toClaudeReply } from './to-claude-reply';
import type { TranscriptReader } from './transcript-reader';
import type { ClaudeCallInput, ClaudeReply } from './types';
import { withHeartbeats } from './with-heartbeats';

/** A piece of an answer's text as Claude writes it, with the call it belongs to. */
export interface ClaudeTextDelta {
  workflowId: string;
  /** The `callClaude` activity's id: one per model call of the conversation. */
  activityId: string;
  /** Temporal's attempt number: a retried call streams its text again from the start. */
  attempt: number;
  text: string;
}

/** What `callClaude` needs from the worker. */
export interface CallClaudeDeps {
  claude: Anthropic;
  /** The worker's transcript reader (tests give a stand-in with the same three reads). */
  transcripts: Pick<TranscriptReader, 'messages' | 'tools' | 'summary'>;
  /** Overrides of the call's time limits (`src/errors/claude-time-limits.ts`); tests set short ones. */
  limits?: Partial<ClaudeCallLimits>;
  /**
   * Sees the answer's text as it streams, e.g. to show it live. Worker-side only: the deltas never
   * enter an activity result or the workflow's history.
   */
  onTextDelta?: (delta: ClaudeTextDelta) => void;
  /** Sees Claude's thinking as it streams (thinking on), like {@link onTextDelta}. */
  onThinkingDelta?: (delta: ClaudeTextDelta) => void;
  /**
   * Publish the answer as it streams in the heartbeats' details, for followers (default true;
   * `src/activities/publish-progress.ts`). Off: the heartbeats carry nothing, as before.
   */
  publishProgress?: boolean;
  /**
   * The live channel (`MCP_HOST_LIVE_URL`, src/live/): each piece of the answer and thinking goes to
   * it at once, while someone follows the conversation, besides the heartbeats. Worker-side only.
   */
  live?: LivePublishing;
}

/** The call's publisher to the live channel, if the worker has one. */
function liveCall(live: LivePublishing | undefined, context: Context): LiveCallPublisher | undefined {
  const { workflowExecution, activityId, attempt } = context.info;
  // Only a workflow's call has followers (a standalone activity has no conversation).
  if (!live || workflowExecution === undefined) return undefined;
  return new LiveCallPublisher(live, { workflowId: workflowExecution.workflowId, runId: workflowExecution.runId, activityId, attempt });
}

/** The call's publisher: with a live channel the text goes there at once and heartbeats only keep the call alive. */
function publisherFor(live: LivePublishing | undefined): ClaudeStreamPublisher {
  const channel = liveCall(live, Context.current());
  return new ClaudeStreamPublisher(Context.current(), channel ? LIVE_PUBLISH_GAP_MS : PUBLISH_GAP_MS, STREAM_WINDOW_CHARS, QUIET_START_MS, channel);
}

/**
 * The `callClaude` activity: one streamed `POST /v1/messages` (S6, `src/claude/stream-message.ts`:
 * long generations work, text deltas reach `onTextDelta`, the result is the final message) with the whole transcript read from the
 * workflow (S15), `tools` on every request (S12) and the system prompt as the top-level field (S7).
 * With an empty catalogue and tool calls in the history, the tools those calls name go out as
 * stand-ins the model may not call (`src/claude/request-tools.ts`): the API refuses such a request
 * without tools.
 *
 * Before sending, the messages are checked against the Messages API's shape rules (roles alternate,
 * every `tool_use` answered by a `tool_result` in the next message, no blank text): a request that
 * breaks them would be refused with a 400 after the round trip, so it fails here instead, at once
 * and non-retryable (`host.invalid_transcript`), naming the message at fault.
 */
export function createCallClaude(deps: CallClaudeDeps): (input: ClaudeCallInput) => Promise<ClaudeReply> {
  // Heartbeats cover the transcript reads too (queries to the workflow), not only the request.
  return (input) => {
    // The answer so far rides on every heartbeat of the call (never its result or the history).
    const publisher =
      deps.publishProgress === false
        ? undefined
        : publisherFor(deps.live);
    const beat = publisher ? () => publisher.heartbeat() : undefined;
    // Without a publisher too, the call's first heartbeat waits out the quiet start.
    const quietUntil = publisher?.quietUntil ?? Date.now() + QUIET_START_MS;
    return withHeartbeats(classified(async () => {
      const { body, betas } = await buildClaudeRequest(deps.transcripts, input);
      // The prompt goes into the call's span only when content capture is on (src/telemetry/traced-activities.ts).
      if (contentCaptured()) trace.getActiveSpan()?.setAttribute('gen_ai.input.messages', capturedJson(body.messages));
      const context = Context.current();
      const { activityId, attempt } = context.info;
      const { onTextDelta, onThinkingDelta } = deps;
      const reply = await streamMessage(deps.claude, body, {
        signal: context.cancellationSignal,
        limits: claudeCallLimits(input.maxTokens, deps.limits),
        ...(betas !== undefined ? { betas } : {}),
        // Progress shows in the heartbeats too (the timer keeps them going while the call waits).
        onEvent: () => (publisher ? publisher.beatSoon() : Date.now() >= quietUntil && context.heartbeat()),
        onTextDelta: (text: string) => {
          publisher?.append(text);
          onTextDelta?.({ workflowId: input.transcript.workflowId, activityId, attempt, text });
        },
        onThinkingDelta: (text: string) => {
          publisher?.appendThinking(text);
          onThinkingDelta?.({ workflowId: input.transcript.workflowId, activityId, attempt, text });
        },
      }).finally(() => publisher?.close());
      return toClaudeReply(reply);
    }), beat);
  };
}
