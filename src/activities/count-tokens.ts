/**
 * The `countTokens` activity: the Messages API's token-counting endpoint
 * (`POST /v1/messages/count_tokens`) over the request the next Claude call would send, built the
 * same way (`buildClaudeRequest`). The context guard asks for it when a large tool result is about
 * to join the prompt, where it would otherwise estimate (4 characters a token): a count is exact,
 * free, and keeps a turn from being refused as too long, or escalated for nothing. It is a
 * retryable read; a failure leaves the guard with its estimate. A worker on an endpoint without
 * the counting endpoint (the offline stand-in) skips it, and says so in the result.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { Context } from '@temporalio/activity';
import { classified } from '../errors/classify-error';
import { buildClaudeRequest } from './claude-request';
import type { TranscriptReader } from './transcript-reader';
import type { ClaudeCallInput, TokenCount } from './types';

/** What `countTokens` needs from the worker. */
export interface CountTokensDeps {
  claude: Anthropic;
  transcripts: Pick<TranscriptReader, 'messages' | 'tools' | 'summary'>;
  /** False on an endpoint without `count_tokens` (the offline stand-in): every call is skipped. */
  enabled: boolean;
}

/** Why a worker skips the count: the workflow records it in the activity's result. */
export const COUNT_SKIPPED_OFFLINE = 'the offline stand-in has no token-counting endpoint';

export function createCountTokens(deps: CountTokensDeps): (input: ClaudeCallInput) => Promise<TokenCount> {
  return (input) =>
    classified(async () => {
      if (!deps.enabled) return { skipped: COUNT_SKIPPED_OFFLINE };
      const { body, betas } = await buildClaudeRequest(deps.transcripts, input);
      // The count takes the request's fields but max_tokens and the code execution container.
      const fields: Partial<typeof body> & { container?: unknown } = { ...body };
      delete fields.max_tokens;
      delete fields.container;
      const signal = Context.current().cancellationSignal;
      const counted =
        betas !== undefined
          ? await deps.claude.beta.messages.countTokens({ ...fields, betas } as unknown as Parameters<Anthropic['beta']['messages']['countTokens']>[0], { signal })
          : await deps.claude.messages.countTokens(fields as Parameters<Anthropic['messages']['countTokens']>[0], { signal });
      return { inputTokens: counted.input_tokens };
    });
}
