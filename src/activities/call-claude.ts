import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { Context } from '@temporalio/activity';
import { toRequestContent } from '../claude/reply-content';
import { classified } from './classify-error';
import type { TranscriptReader } from './transcript-reader';
import type { ClaudeCallInput, ClaudeReply } from './types';

/** What `callClaude` needs from the worker. */
export interface CallClaudeDeps {
  claude: Anthropic;
  transcripts: TranscriptReader;
}

/** Heartbeats while the HTTP call is in flight, so a dead worker is noticed within the heartbeat timeout. */
async function withHeartbeats<T>(work: Promise<T>): Promise<T> {
  const timer = setInterval(() => Context.current().heartbeat(), 1000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/**
 * The `callClaude` activity: one `POST /v1/messages` (S6) with the whole transcript read from the
 * workflow (S15), `tools` on every request (S12) and the system prompt as the top-level field (S7).
 */
export function createCallClaude(deps: CallClaudeDeps): (input: ClaudeCallInput) => Promise<ClaudeReply> {
  return (input) =>
    classified(async () => {
      const [messages, tools] = await Promise.all([
        deps.transcripts.messages(input.transcript),
        deps.transcripts.tools(input.transcript, input.catalogDigest),
      ]);
      const body: MessageCreateParamsNonStreaming = {
        model: input.model,
        max_tokens: input.maxTokens,
        ...(input.system !== undefined ? { system: input.system } : {}),
        messages,
        ...(tools.length > 0 ? { tools } : {}),
      };
      const reply = await withHeartbeats(
        deps.claude.messages.create(body, { signal: Context.current().cancellationSignal }),
      );
      return {
        id: reply.id,
        model: reply.model,
        content: toRequestContent(reply.content),
        stopReason: reply.stop_reason,
        stopSequence: reply.stop_sequence,
        usage: {
          input_tokens: reply.usage.input_tokens,
          output_tokens: reply.usage.output_tokens,
          cache_creation_input_tokens: reply.usage.cache_creation_input_tokens ?? 0,
          cache_read_input_tokens: reply.usage.cache_read_input_tokens ?? 0,
        },
      };
    });
}
