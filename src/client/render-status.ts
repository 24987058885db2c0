import type { ConversationStatus, UsageTotals } from '../conversation/types';
import { pendingInputLine } from '../input/input-requests';
import { pendingApprovalLine } from '../workflows/progress-text';

/** `server tools: web search N, web fetch N, code execution N`, when the conversation used one. */
function serverToolsLine(usage: UsageTotals): string[] {
  const searches = usage.webSearchRequests ?? 0;
  const fetches = usage.webFetchRequests ?? 0;
  const code = usage.codeExecutionCalls ?? 0;
  if (searches + fetches + code === 0) return [];
  return [`server tools: web search ${searches}, web fetch ${fetches}, code execution ${code}`];
}

/** The status query's answer as `mcp-host status` and chat's `/status` print it. */
export function renderStatus(s: ConversationStatus): string {
  return [
    `state: ${s.state}   turns: ${s.turnsCompleted}   pending: ${s.pendingTurns}   messages: ${s.messageCount}   tools: ${s.toolCount}`,
    `model calls: ${s.modelCalls}   tool calls: ${s.toolCalls} (errors: ${s.toolErrors}, host errors: ${s.hostToolErrors})`,
    `tokens: input ${s.usage.inputTokens}, output ${s.usage.outputTokens}, cache write ${s.usage.cacheCreationInputTokens}, cache read ${s.usage.cacheReadInputTokens}`,
    // Completions Claude made for servers (sampling), when there were any; their tokens are in the line above too.
    ...(s.sampling && s.sampling.calls > 0
      ? [`sampling: ${s.sampling.calls} completion${s.sampling.calls === 1 ? '' : 's'} for servers, tokens: input ${s.sampling.usage.inputTokens}, output ${s.sampling.usage.outputTokens}`]
      : []),
    // The server tools the API ran, when there were any (statuses before server tools have no such fields).
    ...serverToolsLine(s.usage),
    ...(s.budget !== undefined ? [budgetLine(s.budget)] : []),
    `cost: ${s.cost.priced ? `$${s.cost.usd.toFixed(4)} (estimate${s.cost.note !== undefined ? `; ${s.cost.note}` : ''})` : `unpriced model`}   context: ${s.context.strategy}, last prompt ${s.context.lastPromptTokens} of ${s.context.contextWindow} tokens${s.context.summaryCovers > 0 ? `, summary covers ${s.context.summaryCovers} messages` : ''}${s.context.compactions !== undefined ? `, compacted ${s.context.compactions}×` : ''}${s.thinking !== undefined ? `   thinking: ${s.thinking}` : ''}${s.toolSearch !== undefined && s.toolSearch !== 'auto' ? `   tool search: ${s.toolSearch}` : ''}`,
    `last stop_reason: ${s.lastStopReason ?? '-'}   last turn: ${s.lastTurn ? s.lastTurn.status : '-'}`,
    // Statuses of workers before tool approval have no such field.
    ...(s.pendingApprovals ?? []).map((p, i) => `${i === 0 ? 'waiting for approval: ' : '                      '}${pendingApprovalLine(p)}`),
    // Nor those before servers' input requests: answer with `mcp-host respond ID REQUEST_ID`.
    ...(s.pendingInputs ?? []).map((p, i) => `${i === 0 ? 'waiting for input: ' : '                   '}${pendingInputLine(p)}`),
  ].join('\n');
}

/** `budget: $0.5 (left $0.4123), 20000 tokens (left 1234)`. */
function budgetLine(budget: NonNullable<ConversationStatus['budget']>): string {
  const parts = [
    budget.usd !== undefined ? `$${budget.usd} (left $${(budget.left.usd ?? 0).toFixed(4)})` : undefined,
    budget.tokens !== undefined ? `${budget.tokens} tokens (left ${budget.left.tokens ?? 0})` : undefined,
  ];
  return `budget: ${parts.filter((part) => part !== undefined).join(', ')}`;
}
