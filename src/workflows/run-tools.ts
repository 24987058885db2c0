/**
 * Runs every `tool_use` of one reply concurrently and answers each with a `tool_result`, in the
 * order of the blocks (S17). Tool errors are data: MCP `isError` → `is_error` (S14), and a call the
 * host could not make (unknown tool, rejected arguments, a tool that failed its whole attempt budget
 * of the tool retry policy) becomes an `is_error` result written by the host, so the model can
 * react and nothing loops. A lost worker is not the tool's failure: the call is retried until it runs.
 * Tool approval (src/approval): a `deny` route never runs and gets the host's `is_error` result; an
 * `ask` route waits for the user's decision (the others of the reply run meanwhile), and a denied
 * call gets an `is_error` result saying the user declined.
 */
import { isCancellation } from '@temporalio/workflow';
import type { ToolResultBlock, ToolUseBlock } from '../conversation/transcript';
import type { ConversationState } from '../conversation/conversation-state';
import { findToolRoute } from '../conversation/tool-routes';
import { resourceActivities, toolActivities } from './activity-stubs';
import { failureMessage } from './failure-message';
import { routeApprovalMode } from '../approval/approval-mode';
import { cancelledWhileWaitingText, policyDeniedText, userDeclinedText, type ApprovalDecision } from '../approval/pending-approvals';
import { isPatched } from './patches';
import { awaitApproval, TOOL_APPROVAL_PATCH } from './tool-approval';
import { answerInputRequests, serveReplyInputs } from './server-input';
import type { ToolRoute } from '../conversation/types';
import type { ToolCallInput, ToolCallOutput } from '../activities/types';

function hostError(toolUse: ToolUseBlock, text: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: toolUse.id, content: text, is_error: true };
}

/** Tool uses of one reply whose turn was cancelled while they waited for approval (so they never ran). */
type NeverRan = Set<string>;

async function runOne(state: ConversationState, toolUse: ToolUseBlock, neverRan: NeverRan = new Set()): Promise<ToolResultBlock> {
  state.toolCalls += 1;
  const route = findToolRoute(state.catalog, toolUse.name);
  if (!route) {
    state.hostToolErrors += 1;
    return hostError(toolUse, `[host] There is no tool named "${toolUse.name}". Use one of the listed tools.`);
  }
  const input = toolUse.input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    state.hostToolErrors += 1;
    return hostError(toolUse, `[host] The input of tool "${toolUse.name}" must be a JSON object.`);
  }
  // Tool approval (mcp.json `approval`): the route carries the mode; an `auto` route asks nothing
  // of the history. Patched: a history whose worker ran such a call replays as it ran.
  const mode = routeApprovalMode(route);
  if (mode !== 'auto' && isPatched(TOOL_APPROVAL_PATCH)) {
    if (mode === 'deny') {
      state.hostToolErrors += 1;
      return hostError(toolUse, policyDeniedText(toolUse.name, route.server));
    }
    let decision: ApprovalDecision;
    try {
      decision = await awaitApproval(state, toolUse, route);
    } catch (err) {
      if (isCancellation(err)) neverRan.add(toolUse.id);
      throw err;
    }
    if (decision.kind === 'denied') {
      state.hostToolErrors += 1;
      return hostError(toolUse, userDeclinedText(toolUse.name, decision.reason));
    }
  }
  try {
    const output = await callWithInputs(state, toolUse, route, input as Record<string, unknown>);
    if (output.isError) state.toolErrors += 1;
    return output.isError
      ? { type: 'tool_result', tool_use_id: toolUse.id, content: output.content, is_error: true }
      : { type: 'tool_result', tool_use_id: toolUse.id, content: output.content };
  } catch (err) {
    // A cancellation is not the tool's failure: the caller decides what it means (runTools).
    if (isCancellation(err)) throw err;
    state.hostToolErrors += 1;
    return hostError(toolUse, `[host] Tool "${toolUse.name}" could not be run: ${failureMessage(err)}`);
  }
}

/** How many `input_required` rounds one call may take before the host gives up on it. */
const MAX_INPUT_ROUNDS = 10;

/**
 * One tool call, with the requests its server makes answered (src/workflows/server-input.ts): on the
 * 2025 wire while the activity holds the call; on 2026-07-28, round by round, each round a new
 * activity that sends the answers back. Nothing of this shows in a history whose servers ask nothing.
 */
async function callWithInputs(state: ConversationState, toolUse: ToolUseBlock, route: ToolRoute, args: Record<string, unknown>): Promise<ToolCallOutput> {
  // The host's own resource tools: no server of their own to ask back.
  if (route.host !== undefined) return resourceActivities(route, state.options).useResources({ tool: route.host, arguments: args, toolUseId: toolUse.id });
  const roots = state.options.roots;
  let again: Pick<ToolCallInput, 'inputResponses' | 'requestState'> = {};
  for (let round = 1; ; round++) {
    const call = toolActivities(route, state.options).callTool({
      server: route.server,
      tool: route.name,
      arguments: args,
      toolUseId: toolUse.id,
      idempotent: route.idempotent,
      ...(roots !== undefined && roots.length > 0 ? { roots } : {}),
      ...again,
    });
    const output = await call;
    if (output.inputRequired === undefined) return output;
    if (round >= MAX_INPUT_ROUNDS) {
      return { content: `[host] MCP server "${route.server}" still asked for input after ${MAX_INPUT_ROUNDS} rounds; the call was given up.`, isError: true, truncatedChars: 0 };
    }
    const answered = await answerInputRequests(state, toolUse, route, output.inputRequired, round);
    if ('refused' in answered) return { content: `[host] MCP server "${route.server}" could not finish tool "${toolUse.name}": ${answered.refused}.`, isError: true, truncatedChars: 0 };
    again = { inputResponses: answered.inputResponses, ...(output.inputRequired.requestState !== undefined ? { requestState: output.inputRequired.requestState } : {}) };
  }
}

/** What running one reply's tool uses gave. */
export interface ToolRun {
  /** One result per tool use, in block order. */
  results: ToolResultBlock[];
  /** Set when the run was cancelled: the tools cut short are answered with the host's `is_error` result. */
  cancelled?: Error;
}

/**
 * Runs all tool uses at once; results come back in block order whatever order they finish in.
 * Cancelled (the turn's scope), every tool use is still answered, so the history stays valid: the
 * finished ones with their results, the others with a host `is_error` result; the caller then
 * ends the turn (or, when the whole workflow is cancelled, does not record them at all).
 */
export async function runToolsUntilCancelled(state: ConversationState, toolUses: readonly ToolUseBlock[]): Promise<ToolRun> {
  // Tools that need no approval start at once; those that wait for it start when approved.
  const neverRan: NeverRan = new Set();
  const settled = await serveReplyInputs(state, routedUses(state, toolUses), Promise.allSettled(toolUses.map((toolUse) => runOne(state, toolUse, neverRan))));
  let cancelled: Error | undefined;
  const results = settled.map((outcome, index): ToolResultBlock => {
    if (outcome.status === 'fulfilled') return outcome.value;
    // runOne turns every failure but a cancellation into a result.
    if (!isCancellation(outcome.reason)) throw outcome.reason;
    cancelled ??= outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason));
    const toolUse = toolUses[index] as ToolUseBlock;
    if (neverRan.has(toolUse.id)) return hostError(toolUse, cancelledWhileWaitingText(toolUse.name));
    return hostError(toolUse, `[host] The turn was cancelled before tool "${toolUse.name}" finished; it may have run in part.`);
  });
  return { results, ...(cancelled !== undefined ? { cancelled } : {}) };
}

/** Runs all tool uses at once; results come back in block order whatever order they finish in. */
export async function runTools(state: ConversationState, toolUses: readonly ToolUseBlock[]): Promise<ToolResultBlock[]> {
  return serveReplyInputs(state, routedUses(state, toolUses), Promise.all(toolUses.map((toolUse) => runOne(state, toolUse))));
}

/** The reply's tool uses that name a tool of the catalogue, with its route (the servers that may ask back). */
function routedUses(state: ConversationState, toolUses: readonly ToolUseBlock[]): Array<{ toolUse: ToolUseBlock; route: ToolRoute }> {
  return toolUses.flatMap((toolUse) => {
    const route = findToolRoute(state.catalog, toolUse.name);
    return route ? [{ toolUse, route }] : [];
  });
}

/** Answers tool uses that will not run because the turn hit its iteration limit. */
export function notRunResults(toolUses: readonly ToolUseBlock[], limit: number): ToolResultBlock[] {
  return toolUses.map((toolUse) =>
    hostError(toolUse, `[host] Not run: this turn reached the host's limit of ${limit} model calls.`),
  );
}
