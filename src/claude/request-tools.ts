/**
 * The `tools` (and `tool_choice`) of one Messages API request. Pure.
 *
 * The API refuses a request whose messages hold `tool_use` or `tool_result` blocks but that defines
 * no tools (400 "Requests which include `tool_use` or `tool_result` blocks must define tools."). A
 * conversation gets there when its catalogue is empty now (its servers were removed from mcp.json,
 * or list no tools any more) while earlier turns called tools. The history is never rewritten, so
 * the request defines each tool its `tool_use` blocks name as a stand-in that says it is gone, and
 * `tool_choice: none` keeps the model from calling one.
 *
 * With tool search on (src/claude/tool-search.ts), the catalogue's tools go deferred beside the
 * search tool. The conversation's server tools (src/claude/server-tools.ts) go first, whatever the
 * catalogue holds: the API runs them, so they stay offered when no MCP tool is left.
 */
import type { MessageParam, Tool, ToolChoiceNone } from '@anthropic-ai/sdk/resources/messages';
import { HostError } from '../errors/host-error';
import { serverToolDefinitions, type ServerToolSpec } from './server-tools';
import { withToolSearch, type RequestTool, type ToolSearchSetting } from './tool-search';

/** What the API accepts as a tool name: a name it would refuse cannot be a stand-in. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** The one stand-in when no `tool_use` gives a usable name (only results, or names the API refuses). */
const FALLBACK_NAME = 'unavailable_tool';

/** The tool fields of a request: the catalogue as it is, stand-ins, or nothing. */
export interface RequestTools {
  tools?: RequestTool[];
  tool_choice?: ToolChoiceNone;
}

function hasToolBlocks(messages: readonly MessageParam[]): boolean {
  return messages.some((m) => typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
}

/** The distinct names of the `tool_use` blocks, in order of first use. */
function calledNames(messages: readonly MessageParam[]): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_use' && TOOL_NAME.test(block.name)) names.add(block.name);
  }
  return [...names];
}

function standIn(name: string): Tool {
  return {
    name,
    description: 'No longer available: offered earlier in this conversation, but no connected MCP server provides it now. Do not call it.',
    input_schema: { type: 'object', properties: {} },
  };
}

/**
 * The catalogue's tools when there are any (deferred beside the search tool when `toolSearch` turns
 * it on); with none, stand-ins for the tools `messages` (what is
 * sent, after the context strategy) called, under `tool_choice: none`, when they hold tool blocks;
 * otherwise no tools at all. The server tools of `serverTools` go first in every case (under
 * `tool_choice: none` they cannot be called either: that request only answers).
 *
 * @throws HostError (`host.invalid_request`, not retryable) when a catalogue tool has a server
 *   tool's name: the API refuses tools of one name. The workflow never names an MCP tool so in a
 *   conversation that offers that server tool (src/conversation/stable-tool-names.ts).
 */
export function requestTools(catalog: readonly Tool[], messages: readonly MessageParam[], toolSearch?: ToolSearchSetting, serverTools?: readonly ServerToolSpec[]): RequestTools {
  const server = serverToolDefinitions(serverTools);
  const clash = catalog.find((tool) => server.some((s) => s.name === tool.name));
  if (clash !== undefined) {
    throw new HostError(
      `the MCP tool ${JSON.stringify(clash.name)} has the name of the ${clash.name} server tool this conversation offers; the API refuses two tools of one name`,
      'host.invalid_request',
      false,
    );
  }
  if (catalog.length > 0) return { tools: [...server, ...withToolSearch(catalog, messages, toolSearch)] };
  if (!hasToolBlocks(messages)) return server.length > 0 ? { tools: server } : {};
  const names = calledNames(messages);
  return { tools: [...server, ...(names.length > 0 ? names : [FALLBACK_NAME]).map(standIn)], tool_choice: { type: 'none' } };
}
