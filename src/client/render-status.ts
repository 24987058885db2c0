import type { ConversationStatus } from '../conversation/types';
import { pendingApprovalLine } from '../workflows/progress-text';

/** The status query's answer as `mcp-host status` and chat's `/status` print it. */
export function renderStatus(s: ConversationStatus): string {
  return [
    `state: ${s.state}   turns: ${s.turnsCompleted}   pending: ${s.pendingTurns}   messages: ${s.messageCount}   tools: ${s.toolCount}`,
    `model calls: ${s.modelCalls}   tool calls: ${s.toolCalls} (errors: ${s.toolErrors}, host errors: ${s.hostToolErrors})`,
    `tokens: input ${s.usage.inputTokens}, output ${s.usage.outputTokens}, cache write ${s.usage.cacheCreationInputTokens}, cache read ${s.usage.cacheReadInputTokens}`,
    `cost: ${s.cost.priced ? `$${s.cost.usd.toFixed(4)} (estimate)` : `unpriced model`}   context: ${s.context.strategy}, last prompt ${s.context.lastPromptTokens} of ${s.context.contextWindow} tokens${s.context.summaryCovers > 0 ? `, summary covers ${s.context.summaryCovers} messages` : ''}`,
    `last stop_reason: ${s.lastStopReason ?? '-'}   last turn: ${s.lastTurn ? s.lastTurn.status : '-'}`,
    // Statuses of workers before tool approval have no such field.
    ...(s.pendingApprovals ?? []).map((p, i) => `${i === 0 ? 'waiting for approval: ' : '                      '}${pendingApprovalLine(p)}`),
  ].join('\n');
}
