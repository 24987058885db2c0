import type Anthropic from '@anthropic-ai/sdk';
import { Context } from '@temporalio/activity';
import { splitForSummary } from '../context/summary-split';
import { summaryPrompt } from '../context/summary-prompt';
import { textOf } from '../conversation/transcript';
import { toRequestContent } from '../claude/reply-content';
import { toReplyUsage } from '../claude/reply-usage';
import { streamMessage } from '../claude/stream-message';
import { claudeCallLimits } from '../errors/claude-time-limits';
import { classified } from '../errors/classify-error';
import type { TranscriptReader } from './transcript-reader';
import type { SummarizeInput, SummarizeResult } from './types';
import { withHeartbeats } from './with-heartbeats';

/** Tokens a summary may take. */
const SUMMARY_MAX_TOKENS = 1024;

/**
 * The `summarizeContext` activity (summarize strategy, seed §7.3): asks Claude, without tools, to
 * fold the turns that aged out of the recent window into the running summary. The stored history
 * is untouched; only what later requests send changes.
 */
export function createSummarizeContext(deps: {
  claude: Anthropic;
  transcripts: TranscriptReader;
}): (input: SummarizeInput) => Promise<SummarizeResult> {
  return (input) =>
    withHeartbeats(classified(async () => {
      const [messages, previous] = await Promise.all([
        deps.transcripts.messages(input.transcript),
        deps.transcripts.summary(input.transcript, input.previousCovers),
      ]);
      const split = splitForSummary(messages, input.keepRecentTurns, previous);
      const none = { input_tokens: 0, output_tokens: 0 };
      if (split.coveredMessages === 0 || split.older.length === 0) return { summary: null, usage: none };
      // Streamed like callClaude, with the same time limits (src/errors/claude-time-limits.ts).
      const context = Context.current();
      const reply = await streamMessage(
        deps.claude,
        {
          model: input.model,
          max_tokens: SUMMARY_MAX_TOKENS,
          messages: [{ role: 'user', content: summaryPrompt(split.older, previous?.text) }],
        },
        { signal: context.cancellationSignal, limits: claudeCallLimits(SUMMARY_MAX_TOKENS), onEvent: () => context.heartbeat() },
      );
      const text = textOf(toRequestContent(reply.content)).trim();
      return {
        summary: text === '' ? null : { text, coveredMessages: split.coveredMessages },
        usage: toReplyUsage(reply.usage),
      };
    }));
}
