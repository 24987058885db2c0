/**
 * The real API's checks of tool search (issue 29): `defer_loading` only beside a tool search tool,
 * never on every tool nor on the search tool itself, and the search blocks a host sends back in its
 * history (`server_tool_use`, `tool_search_tool_result` with `tool_reference`s) in their place.
 * Messages are worded after the API's, with the JSON path first.
 */
import { TOOL_SEARCH_NAMES, TOOL_SEARCH_TYPES } from './tool-search-emulation';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SERVER_TOOL_USE_ID = /^srvtoolu_[a-zA-Z0-9_]+$/;

/** The error for a request's `tools` as tool search sees them, or null. */
export function validateToolSearchTools(tools: unknown): string | null {
  if (!Array.isArray(tools)) return null;
  let searchTools = 0;
  let deferred = 0;
  for (const [i, tool] of (tools as unknown[]).entries()) {
    if (!isRecord(tool)) continue;
    const loading = tool.defer_loading;
    if (loading !== undefined && loading !== null && typeof loading !== 'boolean') return `tools.${i}.defer_loading: Input should be a valid boolean`;
    const searchName = typeof tool.type === 'string' ? TOOL_SEARCH_TYPES[tool.type] : undefined;
    if (searchName !== undefined) {
      if (tool.name !== searchName) return `tools.${i}.name: Input should be '${searchName}'`;
      if (loading === true) return `tools.${i}: the tool search tool cannot have defer_loading set`;
      searchTools++;
    }
    if (loading === true) deferred++;
  }
  if (deferred > 0 && deferred === tools.length) return 'All tools have defer_loading set. At least one tool must be non-deferred.';
  if (deferred > 0 && searchTools === 0) {
    return 'tools: tools with defer_loading require a tool search tool (tool_search_tool_regex or tool_search_tool_bm25) in tools';
  }
  return null;
}

/**
 * The error for the tool search blocks of `messages`, or null: `server_tool_use` and
 * `tool_search_tool_result` only in assistant messages, each result after the search it answers in
 * the same message, and each `tool_reference` naming a tool of the request.
 */
export function validateToolSearchBlocks(messages: readonly Json[], toolNames: ReadonlySet<string>): string | null {
  for (const [i, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    const searches = new Set<string>();
    for (const [j, block] of (message.content as unknown[]).entries()) {
      if (!isRecord(block)) continue;
      const path = `messages.${i}.content.${j}`;
      if (block.type === 'server_tool_use') {
        if (message.role !== 'assistant') return `${path}: server_tool_use blocks can only be in assistant messages`;
        if (typeof block.id !== 'string' || !SERVER_TOOL_USE_ID.test(block.id)) return `${path}.id: String should match pattern '${SERVER_TOOL_USE_ID.source}'`;
        if (!isRecord(block.input)) return `${path}.input: Input should be a valid dictionary`;
        if ((TOOL_SEARCH_NAMES as readonly string[]).includes(block.name as string)) searches.add(block.id);
      }
      if (block.type !== 'tool_search_tool_result') continue;
      if (message.role !== 'assistant') return `${path}: tool_search_tool_result blocks can only be in assistant messages`;
      if (typeof block.tool_use_id !== 'string' || !searches.has(block.tool_use_id)) {
        return `${path}: tool_search_tool_result block(s) provided when previous message does not contain a matching server_tool_use block: ${String(block.tool_use_id)}`;
      }
      const content = block.content;
      if (!isRecord(content)) return `${path}.content: Input should be a valid dictionary`;
      if (content.type === 'tool_search_tool_result_error') continue;
      if (content.type !== 'tool_search_tool_search_result' || !Array.isArray(content.tool_references)) {
        return `${path}.content.tool_references: Field required`;
      }
      for (const [k, ref] of (content.tool_references as unknown[]).entries()) {
        if (!isRecord(ref) || ref.type !== 'tool_reference' || typeof ref.tool_name !== 'string') return `${path}.content.tool_references.${k}: Input should be a tool_reference block`;
        if (!toolNames.has(ref.tool_name)) return `${path}.content.tool_references.${k}: Tool reference '${ref.tool_name}' not found in available tools`;
      }
    }
  }
  return null;
}
