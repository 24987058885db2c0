import type Anthropic from '@anthropic-ai/sdk';
import { toClaudeReply } from '../../src/activities/to-claude-reply';
import { classified } from '../../src/errors/classify-error';
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
      return toClaudeReply(reply);
    });
}
