/**
 * The API's tool search (issue 29): past a share of the context window, or when asked, the
 * catalogue's tools go out with `defer_loading: true` beside the BM25 tool search tool, so a
 * request carries only the definitions Claude searched for (`tool_reference` blocks in a
 * `tool_search_tool_result`) instead of every tool on every round. Pure: no Node built-ins.
 *
 * A catalogue tool may carry `defer_loading` from mcp.json (src/mcp/tool-loading.ts): `true` (its
 * server says `deferLoading: true`) is deferred whenever tool search is on, and turns it on in
 * `auto` mode even under the threshold; `false` (`deferLoading: false`, or the tool is in
 * `alwaysLoaded`) is never deferred. Without tool search the field is taken off again, so the
 * request is what it was before tool search existed.
 */
import type {
  MessageParam,
  Tool,
  ToolSearchToolBm25_20251119,
} from '@anthropic-ai/sdk/resources/messages';
import type { ServerToolDefinition } from './server-tools';

/** A tool as this host sends it: a catalogue tool (perhaps deferred), the search tool, or a server tool. */
export type RequestTool = Tool | ToolSearchToolBm25_20251119 | ServerToolDefinition;

/** `--tool-search`: always, never, or past {@link AUTO_TOOL_SEARCH_SHARE} of the context window. */
export type ToolSearchMode = 'on' | 'off' | 'auto';

/** The modes, for validation and usage texts. */
export const TOOL_SEARCH_MODES: readonly ToolSearchMode[] = ['on', 'off', 'auto'];

/** `auto` turns tool search on once the tool definitions pass this share of the window (as Claude Code does). */
export const AUTO_TOOL_SEARCH_SHARE = 0.1;

/** The search tool sent beside deferred tools: BM25, natural-language queries. Never deferred itself. */
export const TOOL_SEARCH_TOOL: ToolSearchToolBm25_20251119 = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };

/** The names the API gives its tool search tools (in `server_tool_use` blocks). */
const SEARCH_TOOL_NAMES: ReadonlySet<string> = new Set(['tool_search_tool_bm25', 'tool_search_tool_regex']);

/** A Claude call's tool search setting: the conversation's mode and the window `auto` measures against. */
export interface ToolSearchSetting {
  mode: ToolSearchMode;
  /** The conversation's context window in tokens (src/models/context-windows.ts, or its override). */
  contextWindow: number;
}

/** Whether `value` is a tool search mode. */
export function isToolSearchMode(value: unknown): value is ToolSearchMode {
  return typeof value === 'string' && (TOOL_SEARCH_MODES as readonly string[]).includes(value);
}

/** A rough token count of tool definitions: about 4 characters of their JSON per token. */
export function toolDefinitionTokens(tools: readonly RequestTool[]): number {
  return Math.ceil(JSON.stringify(tools).length / 4);
}

/** Whether the messages already hold a tool search (it stays on for them: its blocks go back). */
export function hasToolSearchBlocks(messages: readonly MessageParam[]): boolean {
  return messages.some(
    (m) =>
      typeof m.content !== 'string' &&
      m.content.some((b) => b.type === 'tool_search_tool_result' || (b.type === 'server_tool_use' && SEARCH_TOOL_NAMES.has(b.name))),
  );
}

function withoutLoading(tool: Tool): Tool {
  if (tool.defer_loading === undefined) return tool;
  const rest: Tool = { ...tool };
  delete rest.defer_loading;
  return rest;
}

/**
 * The catalogue's tools as one request sends them. Tool search is on for `on`; for `auto` when the
 * definitions' estimated tokens pass {@link AUTO_TOOL_SEARCH_SHARE} of the window, when a server
 * asks for it (`defer_loading: true` from mcp.json), or when `messages` already searched; never for
 * `off` (or a call scheduled before the setting existed). On: the search tool first, then every tool, deferred unless mcp.json keeps it loaded (in
 * `auto` under the threshold, only the tools their servers defer). With nothing to defer, the tools
 * go as they are, without the search tool: the API refuses `defer_loading` on every tool, so the
 * search tool (never deferred) always stands beside deferred ones.
 */
export function withToolSearch(catalog: readonly Tool[], messages: readonly MessageParam[], setting: ToolSearchSetting | undefined): RequestTool[] {
  const plain = catalog.map(withoutLoading);
  if (setting === undefined || setting.mode === 'off') return plain;
  const searched = hasToolSearchBlocks(messages);
  const all = setting.mode === 'on' || searched || toolDefinitionTokens(plain) > AUTO_TOOL_SEARCH_SHARE * setting.contextWindow;
  const deferred = (tool: Tool): boolean => tool.defer_loading === true || (all && tool.defer_loading !== false);
  // A conversation that searched keeps the search tool: its history's search blocks go back with it.
  if (!catalog.some(deferred) && !searched) return plain;
  const tools: RequestTool[] = catalog.map((tool) => (deferred(tool) ? { ...withoutLoading(tool), defer_loading: true } : withoutLoading(tool)));
  return [TOOL_SEARCH_TOOL, ...tools];
}
