import type { ConversationStatus } from '../conversation/types';

/** The status query's answer as `mcp-host status` and chat's `/status` print it. */
export function renderStatus(s: ConversationStatus): string {
  return [
    `state: ${s.state}   turns: ${s.turnsCompleted}   pending: ${s.pendingTurns}   messages: ${s.messageCount}   tools: ${s.toolCount}`,
    `model calls: ${s.modelCalls}   tool calls: ${s.toolCalls} (errors: ${s.toolErrors}, host errors: ${s.hostToolErrors})`,
    `tokens: input ${s.usage.inputTokens}, output ${s.usage.outputTokens}, cache write ${s.usage.cacheCreationInputTokens}, cache read ${s.usage.cacheReadInputTokens}`,
    `cost: ${s.cost.priced ? `$${s.cost.usd.toFixed(4)} (estimate)` : `unpriced model`}   context: ${s.context.strategy}, last prompt ${s.context.lastPromptTokens} of ${s.context.contextWindow} tokens${s.context.summaryCovers > 0 ? `, summary covers ${s.context.summaryCovers} messages` : ''}`,
    `last stop_reason: ${s.lastStopReason ?? '-'}   last turn: ${s.lastTurn ? s.lastTurn.status : '-'}`,
  ].join('\n');
}
