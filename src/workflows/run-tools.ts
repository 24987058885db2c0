/**
 * Runs every `tool_use` of one reply concurrently and answers each with a `tool_result`, in the
 * order of the blocks (S17). Tool errors are data: MCP `isError` → `is_error` (S14), and a call the
 * host could not make (unknown tool, rejected arguments, a tool that failed its whole attempt budget
 * of the tool retry policy) becomes an `is_error` result written by the host, so the model can
 * react and nothing loops. A lost worker is not the tool's failure: the call is retried until it runs.
 */
import type { ToolResultBlock, ToolUseBlock } from '../conversation/transcript';
import type { ConversationState } from '../conversation/conversation-state';
import { findToolRoute } from '../conversation/tool-routes';
import { toolActivities } from './activity-stubs';
import { failureMessage } from './failure-message';

function hostError(toolUse: ToolUseBlock, text: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: toolUse.id, content: text, is_error: true };
}

async function runOne(state: ConversationState, toolUse: ToolUseBlock): Promise<ToolResultBlock> {
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
  try {
    const output = await toolActivities(route, state.options).callTool({
      server: route.server,
      tool: route.name,
      arguments: input as Record<string, unknown>,
      toolUseId: toolUse.id,
      idempotent: route.idempotent,
    });
    if (output.isError) state.toolErrors += 1;
    return output.isError
      ? { type: 'tool_result', tool_use_id: toolUse.id, content: output.content, is_error: true }
      : { type: 'tool_result', tool_use_id: toolUse.id, content: output.content };
  } catch (err) {
    state.hostToolErrors += 1;
    return hostError(toolUse, `[host] Tool "${toolUse.name}" could not be run: ${failureMessage(err)}`);
  }
}

/** Runs all tool uses at once; results come back in block order whatever order they finish in. */
export async function runTools(state: ConversationState, toolUses: readonly ToolUseBlock[]): Promise<ToolResultBlock[]> {
  return Promise.all(toolUses.map((toolUse) => runOne(state, toolUse)));
}

/** Answers tool uses that will not run because the turn hit its iteration limit. */
export function notRunResults(toolUses: readonly ToolUseBlock[], limit: number): ToolResultBlock[] {
  return toolUses.map((toolUse) =>
    hostError(toolUse, `[host] Not run: this turn reached the host's limit of ${limit} model calls.`),
  );
}
