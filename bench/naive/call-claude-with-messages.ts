import type Anthropic from '@anthropic-ai/sdk';
import { toRequestContent } from '../../src/claude/reply-content';
import { classified } from '../../src/activities/classify-error';
import type { ClaudeReply } from '../../src/activities/types';
import type { NaiveClaudeInput } from './types';

/**
 * The naive Claude activity: the same `POST /v1/messages` as the real `callClaude`, but the
 * messages and tools arrive as the activity's input, so Temporal records them on every call.
 * Heartbeats are left out: they never reach the history, so they cannot change what is measured.
 */
export function createCallClaudeWithMessages(claude: Anthropic): (input: NaiveClaudeInput) => Promise<ClaudeReply> {
  return (input) =>
    classified(async () => {
      const reply = await claude.messages.create({
        model: input.model,
        max_tokens: input.maxTokens,
        ...(input.system !== undefined ? { system: input.system } : {}),
        messages: input.messages,
        ...(input.tools.length > 0 ? { tools: input.tools } : {}),
      });
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
