/**
 * What a conversation shows in the Temporal Web UI: the one-line summary of each activity it
 * schedules, and its current details. Pure (no Temporal import), so tested without a server.
 * Nothing here carries a secret (the activities' inputs carry none) or long text: arguments and
 * answers are cut to a few hundred characters, on code point boundaries.
 */
import type { ConversationState } from '../conversation/conversation-state';
import { estimateCost } from '../conversation/cost';
import { toolRouteEntries } from '../conversation/tool-routes';
import type { ContentBlockParam, MessageParam, ToolCatalog } from '../conversation/types';
import type { ToolCallInput } from '../activities/types';
import { waitingApprovals, type PendingApproval } from '../approval/pending-approvals';
import { pendingInputLine, waitingInputs } from '../input/input-requests';

/** Longest argument text in a tool call's summary, in characters. */
export const MAX_ARGUMENTS_CHARS = 200;

/** `text` cut to at most `max` characters (code points, so no emoji or CJK is split), `…` marking a cut; one line. */
export function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ');
  const chars = Array.from(oneLine);
  return chars.length <= max ? oneLine : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** The summary of a tool call: `get_weather {"city":"北京"} · weather`. */
export function toolCallSummary(input: Pick<ToolCallInput, 'server' | 'tool' | 'arguments'>): string {
  let args: string;
  try {
    args = JSON.stringify(input.arguments) ?? '';
  } catch {
    args = '(arguments not printable)';
  }
  return `${input.tool} ${clip(args, MAX_ARGUMENTS_CHARS)} · ${input.server}`;
}

function hasText(message: MessageParam): boolean {
  return typeof message.content === 'string' || message.content.some((block) => block.type === 'text');
}

function countOf(content: MessageParam['content'], type: ContentBlockParam['type']): number {
  return typeof content === 'string' ? 0 : content.filter((block) => block.type === type).length;
}

/**
 * Where the turn stands before the next Claude call, read from the messages: the round (1 for the
 * turn's first call) and what led to it (`after tool_use ×2`, `after pause_turn`).
 */
export function nextRound(messages: readonly MessageParam[]): { round: number; after?: string } {
  let replies = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!message) break;
    if (message.role === 'assistant') replies += 1;
    else if (hasText(message)) break;
  }
  const last = messages[messages.length - 1];
  if (replies === 0 || !last) return { round: 1 };
  if (last.role === 'assistant') return { round: replies + 1, after: 'after pause_turn' };
  const answered = countOf(last.content, 'tool_result');
  return { round: replies + 1, ...(answered > 0 ? { after: `after tool_use ×${answered}` } : {}) };
}

/** One waiting call as the details and the CLI show it: `get_weather {"city":"北京"} · weather (toolu_01…, since 2026-12-03T14:03:05Z)`. */
export function pendingApprovalLine(pending: PendingApproval): string {
  // Named as the tool call activities are (MCP name · server), which says where it runs.
  const args = toolCallSummary({ server: pending.server, tool: pending.mcpTool, arguments: pending.arguments as ToolCallInput['arguments'] });
  return `${args} (${pending.toolUseId}, since ${pending.since.replace(/\.\d+Z$/, 'Z')})`;
}

/** The summary of a Claude call: `claude round 3 · after tool_use ×2 · claude-sonnet-4-6`. */
export function claudeCallSummary(messages: readonly MessageParam[] | undefined, model: string): string {
  if (!messages) return `claude · ${model}`;
  const { round, after } = nextRound(messages);
  return [`claude round ${round}`, ...(after !== undefined ? [after] : []), model].join(' · ');
}

/** The servers of a catalogue with their tool counts, in catalogue order. */
export function catalogServers(catalog: ToolCatalog): Array<{ server: string; tools: number }> {
  const counts = new Map<string, number>();
  for (const [, route] of toolRouteEntries(catalog)) counts.set(route.server, (counts.get(route.server) ?? 0) + 1);
  return [...counts].map(([server, tools]) => ({ server, tools }));
}

/**
 * The summary of a tool listing. It is fixed before the listing runs, so it names the catalogue
 * the conversation has (usually the one the listing confirms): `list tools: 2 servers, 211 tools`.
 */
export function listToolsSummary(catalog: ToolCatalog | null): string {
  if (!catalog) return 'list tools: first listing';
  const servers = catalogServers(catalog).length;
  return `list tools: ${servers} server${servers === 1 ? '' : 's'}, ${catalog.tools.length} tool${catalog.tools.length === 1 ? '' : 's'}`;
}

/** The summary of a summarizer call. */
export function summarizeSummary(messages: number, keepRecentTurns: number): string {
  return `summarize older context (${messages} messages, keep last ${keepRecentTurns} turns)`;
}

/** The last answer's text, for the details and the memo. */
export function lastAnswer(state: Pick<ConversationState, 'lastTurn'>, max = 200): string | undefined {
  const text = state.lastTurn?.text;
  return text ? clip(text, max) : undefined;
}

/** The conversation's state word: what the status query says, `ended` once the loop is done. */
export function stateWord(state: Pick<ConversationState, 'currentTurn'>, ended: boolean): 'idle' | 'running' | 'ended' {
  return ended ? 'ended' : state.currentTurn !== null ? 'running' : 'idle';
}

/** Tokens of every kind together. */
export function totalTokens(state: Pick<ConversationState, 'usage'>): number {
  const u = state.usage;
  return u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
}

/**
 * The current details (Temporal markdown, a few lines): state and turn, what runs now, counts,
 * tokens and cost, servers, the last answer.
 */
export function currentDetails(state: ConversationState, now: { ended: boolean; activity?: string; toolsRunning: readonly string[] }): string {
  const word = stateWord(state, now.ended);
  const lines: string[] = [];
  const turn = state.currentTurn !== null && !now.ended ? ` · turn ${state.currentTurn}` : '';
  const queued = state.pending.length > 0 ? ` · ${state.pending.length} turn${state.pending.length === 1 ? '' : 's'} queued` : '';
  lines.push(`**${word}**${turn}${queued}`);
  const approvals = waitingApprovals(state.approvals);
  if (!now.ended && approvals.length > 0) {
    lines.push(`**waiting for approval** (${approvals.length}): ${approvals.map((a) => clip(pendingApprovalLine(a), 160)).join('; ')}`);
  }
  const inputs = waitingInputs(state.inputs);
  if (!now.ended && inputs.length > 0) {
    lines.push(`**waiting for your answer** (${inputs.length}, \`mcp-host respond\`): ${inputs.map((i) => clip(pendingInputLine(i), 200)).join('; ')}`);
  }
  if (!now.ended && state.currentTurn !== null) {
    if (now.toolsRunning.length > 0) {
      lines.push(`running ${now.toolsRunning.length} tool${now.toolsRunning.length === 1 ? '' : 's'}: ${now.toolsRunning.map((t) => clip(t, 120)).join('; ')}`);
    } else if (now.activity !== undefined && approvals.length === 0) {
      lines.push(`now: ${now.activity}`);
    }
  }
  const cost = estimateCost(state.usage, state.options.model, state.options.prices);
  const sampling = state.sampling.calls > 0 ? ` · sampling ${state.sampling.calls} (${totalTokens({ usage: state.sampling.usage })} tokens)` : '';
  lines.push(
    `turns ${state.turnsCompleted} · model calls ${state.modelCalls} · tool calls ${state.toolCalls}` +
      (state.toolErrors + state.hostToolErrors > 0 ? ` (errors ${state.toolErrors + state.hostToolErrors})` : '') +
      sampling,
  );
  lines.push(
    `tokens ${totalTokens(state)} (in ${state.usage.inputTokens}, out ${state.usage.outputTokens}, cache write ${state.usage.cacheCreationInputTokens}, cache read ${state.usage.cacheReadInputTokens})` +
      ` · ${cost.priced ? `$${cost.usd.toFixed(4)} (estimate)` : 'unpriced model'} · ${state.options.model}`,
  );
  if (state.catalog) {
    lines.push(`servers: ${catalogServers(state.catalog).map((s) => `${s.server} (${s.tools})`).join(', ') || 'none'}`);
  }
  const answer = lastAnswer(state);
  if (answer !== undefined) lines.push(`last answer: ${answer}`);
  return lines.join('\n');
}
