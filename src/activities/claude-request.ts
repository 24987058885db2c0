/**
 * The request a Claude call sends, built from the workflow's transcript (read by query, or from the
 * messages the call carries): the context strategy's view of the history, thinking's turn start,
 * the tools (deferred beside the search tool when tool search is on), cache breakpoints, and the
 * fields of thinking and of the API's own context strategies, with the beta headers those need.
 * Shared by `callClaude` and `countTokens`, so what is counted is what would be sent.
 *
 * It is checked against the Messages API's shape rules before anything goes out (roles alternate,
 * every `tool_use` answered in the next message, no blank text, thinking's budget below max_tokens):
 * a request that breaks them would be refused with a 400 after the round trip, so it fails here,
 * at once and non-retryable (`host.invalid_transcript`, `host.invalid_request`), naming the fault.
 */
import { withCacheBreakpoints } from '../claude/cache-breakpoints';
import { requestTools } from '../claude/request-tools';
import { reusableContainer } from '../claude/server-tools';
import type { StreamRequestBody } from '../claude/stream-message';
import { serverContextFields } from '../context/context-editing';
import { applyContextStrategy } from '../context/context-strategy';
import { withThinkingTurnStart } from '../context/thinking-view';
import { transcriptProblem } from '../context/validate-pairing';
import { thinkingBetas, thinkingProblem, thinkingRequestFields } from '../conversation/thinking';
import { HostError } from '../errors/host-error';
import type { TranscriptReader } from './transcript-reader';
import type { ClaudeCallInput } from './types';

/** A request ready to go: its body, and the beta features it uses (absent: none). */
export interface ClaudeRequest {
  body: StreamRequestBody;
  betas?: string[];
}

/** Builds (and checks) the request of a Claude call with this input. */
export async function buildClaudeRequest(transcripts: Pick<TranscriptReader, 'messages' | 'tools' | 'summary'>, input: ClaudeCallInput): Promise<ClaudeRequest> {
  const [messages, tools, summary] = await Promise.all([
    transcripts.messages(input.transcript, input.added),
    transcripts.tools(input.transcript, input.catalogDigest),
    transcripts.summary(input.transcript, input.context.summaryCovers),
  ]);
  const { thinking } = input;
  const thinkingIssue = thinking !== undefined ? thinkingProblem(thinking, input.maxTokens) : undefined;
  if (thinkingIssue !== undefined) {
    throw new HostError(`the request would break the Messages API's rules: ${thinkingIssue}`, 'host.invalid_request', false);
  }
  // What is sent is a view of the stored history (seed §7.3), with cache breakpoints on it;
  // with thinking on, a turn that opens on a thinking-less call's results sends that call as text.
  const viewed = applyContextStrategy(messages, input.context.strategy, summary);
  const sent = thinking !== undefined ? withThinkingTurnStart(viewed) : viewed;
  // Tools even when the catalogue is empty, if the history holds tool calls: the API requires them.
  // Deferred beside the search tool when tool search is on (no beta header: it is in the GA API);
  // the conversation's server tools (web search, web fetch, code execution) first.
  const toolFields = requestTools(tools, sent, input.toolSearch, input.serverTools);
  const container = reusableContainer(input.container, input.serverTools, Date.now());
  const request = withCacheBreakpoints(
    {
      ...(input.system !== undefined ? { system: input.system } : {}),
      ...(toolFields.tools !== undefined ? { tools: toolFields.tools } : {}),
      messages: sent,
    },
    input.promptCache,
  );
  const problem = transcriptProblem(request.messages);
  if (problem !== null) {
    throw new HostError(`the request would break the Messages API's rules: ${problem}`, 'host.invalid_transcript', false);
  }
  // Compaction and context editing run on the API's side: their edit and beta header, only then.
  const serverContext = serverContextFields(input.context.strategy);
  const body: StreamRequestBody = {
    model: input.model,
    max_tokens: input.maxTokens,
    ...(request.system !== undefined ? { system: request.system } : {}),
    messages: request.messages,
    ...(request.tools !== undefined ? { tools: request.tools } : {}),
    ...(toolFields.tool_choice !== undefined ? { tool_choice: toolFields.tool_choice } : {}),
    // Only when on: a conversation without thinking sends what it always sent.
    ...(thinking !== undefined ? thinkingRequestFields(thinking) : {}),
    ...(serverContext !== undefined ? { context_management: serverContext.context_management } : {}),
    // Code execution's container, reused while it lives (src/claude/server-tools.ts).
    ...(container !== undefined ? { container } : {}),
  };
  // Budget thinking with tools thinks between the calls too (interleaved): its beta header.
  const betas = [...(serverContext?.betas ?? []), ...thinkingBetas(thinking, body.tools !== undefined && body.tools.length > 0)];
  return { body, ...(betas.length > 0 ? { betas } : {}) };
}
