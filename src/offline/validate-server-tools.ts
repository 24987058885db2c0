/**
 * The real API's checks of server tools (web search, web fetch, code execution): their `tools`
 * entries, the request's `container`, and the blocks a host sends back in its history. A
 * `server_tool_use` must name a server tool the request offers, and be answered by its result
 * block (`web_search_tool_result`…) after it in the same assistant message, except where the API
 * itself leaves it unanswered: at the end of a paused turn (the request ends with that assistant
 * message, `pause_turn`), or deferred beside a `tool_use` (the next message holds only
 * `tool_result` blocks, and the result opens the assistant message after it). A result block
 * answers an earlier `server_tool_use` of its kind, once; a `tool_result` never answers one (the
 * pairing check of validate-request.ts refuses that). Messages are worded after the API's, path first.
 */
type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `type`s the SDK knows for each server tool (src/claude/server-tools.ts sends the first of each). */
const SERVER_TOOL_TYPES: Readonly<Record<string, readonly string[]>> = {
  web_search: ['web_search_20250305', 'web_search_20260209', 'web_search_20260318'],
  web_fetch: ['web_fetch_20250910', 'web_fetch_20260209', 'web_fetch_20260309', 'web_fetch_20260318'],
  code_execution: ['code_execution_20250522', 'code_execution_20250825', 'code_execution_20260120', 'code_execution_20260521'],
};
const TOOL_TYPE = /^(web_search|web_fetch|code_execution)_\d{8}$/;

/** The result block type that answers each `server_tool_use` name. */
const RESULT_TYPE: Readonly<Record<string, string>> = {
  web_search: 'web_search_tool_result',
  web_fetch: 'web_fetch_tool_result',
  code_execution: 'code_execution_tool_result',
  bash_code_execution: 'bash_code_execution_tool_result',
  text_editor_code_execution: 'text_editor_code_execution_tool_result',
  tool_search_tool_bm25: 'tool_search_tool_result',
  tool_search_tool_regex: 'tool_search_tool_result',
};

/** Result types this module checks (tool search results are validate-tool-search.ts's). */
const CHECKED_RESULTS: ReadonlySet<string> = new Set(Object.values(RESULT_TYPE).filter((t) => t !== 'tool_search_tool_result'));

/** The tool `type` prefix a `server_tool_use` name needs in `tools`, and the versions it needs. */
function servingTool(name: string): { kind: string; versions?: readonly string[] } | undefined {
  if (name === 'web_search' || name === 'web_fetch' || name === 'code_execution') return { kind: name };
  // The bash and file editor of code execution came with `code_execution_20250825`.
  if (name === 'bash_code_execution' || name === 'text_editor_code_execution') {
    return { kind: 'code_execution', versions: (SERVER_TOOL_TYPES.code_execution ?? []).filter((t) => t !== 'code_execution_20250522') };
  }
  return undefined;
}

/** The error for the server tools among a request's `tools`, or null. */
export function validateServerToolDefinitions(tools: unknown): string | null {
  if (!Array.isArray(tools)) return null;
  for (const [i, tool] of (tools as unknown[]).entries()) {
    if (!isRecord(tool) || typeof tool.type !== 'string') continue;
    const match = TOOL_TYPE.exec(tool.type);
    if (match === null) continue;
    const kind = match[1] as string;
    if (!(SERVER_TOOL_TYPES[kind] ?? []).includes(tool.type)) {
      return `tools.${i}: Input tag '${tool.type}' found using 'type' does not match any of the expected tags: ${(SERVER_TOOL_TYPES[kind] ?? []).map((t) => `'${t}'`).join(', ')}`;
    }
    if (tool.name !== kind) return `tools.${i}.${tool.type}.name: Input should be '${kind}'`;
    const uses = tool.max_uses;
    if (uses !== undefined && uses !== null) {
      if (kind === 'code_execution') return `tools.${i}.${tool.type}.max_uses: Extra inputs are not permitted`;
      if (typeof uses !== 'number' || !Number.isInteger(uses)) return `tools.${i}.${tool.type}.max_uses: Input should be a valid integer`;
      if (uses < 1) return `tools.${i}.${tool.type}.max_uses: Input should be greater than 0`;
    }
    if (tool.allowed_domains != null && tool.blocked_domains != null) {
      return `tools.${i}: Cannot specify both allowed_domains and blocked_domains`;
    }
  }
  return null;
}

/** The error for a request's `container` (an id, or `{id?, skills?}`), or null. */
export function validateContainerField(container: unknown): string | null {
  if (container === undefined || container === null) return null;
  if (typeof container === 'string') return container === '' ? 'container: String should have at least 1 character' : null;
  if (!isRecord(container)) return 'container: Input should be a valid string or object';
  if (container.id !== undefined && container.id !== null && typeof container.id !== 'string') return 'container.id: Input should be a valid string';
  return null;
}

/** The server tools a request offers, by `server_tool_use` name. */
function offeredNames(tools: unknown): (name: string) => boolean {
  const types = new Set(Array.isArray(tools) ? (tools as unknown[]).flatMap((t) => (isRecord(t) && typeof t.type === 'string' ? [t.type] : [])) : []);
  return (name) => {
    const serving = servingTool(name);
    if (serving === undefined) return true; // tool search: validate-tool-search.ts
    const versions = serving.versions ?? SERVER_TOOL_TYPES[serving.kind] ?? [];
    return versions.some((v) => types.has(v));
  };
}

function blocksOf(message: Json | undefined): Json[] {
  return message !== undefined && Array.isArray(message.content) ? (message.content as unknown[]).filter(isRecord) : [];
}

/** Whether message `i` left its server tool calls deferred: it calls a tool, and the next message holds only tool results. */
function defersServerTools(messages: readonly Json[], i: number): boolean {
  const next = messages[i + 1];
  if (!blocksOf(messages[i]).some((b) => b.type === 'tool_use') || next?.role !== 'user' || !Array.isArray(next.content)) return false;
  const blocks = next.content as unknown[];
  return blocks.length > 0 && blocks.every((b) => isRecord(b) && b.type === 'tool_result');
}

/** The error for the server tool blocks of `messages` (see the module's comment), or null. */
export function validateServerToolBlocks(messages: readonly Json[], tools: unknown): string | null {
  const offered = offeredNames(tools);
  /** Each call so far: its name, and the message it is in. */
  const calls = new Map<string, { name: string; at: number }>();
  /** Each answered call, and the message its result is in. */
  const answeredAt = new Map<string, number>();
  for (const [i, message] of messages.entries()) {
    for (const [j, block] of blocksOf(message).entries()) {
      const path = `messages.${i}.content.${j}`;
      if (block.type === 'server_tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        if (!offered(block.name)) {
          const serving = servingTool(block.name);
          const needs = serving?.versions !== undefined ? `a ${serving.kind} tool of version ${serving.versions.join(', ')}` : `a \`${block.name}\` tool`;
          return `${path}: \`${block.name}\` server tool use requires ${needs} in \`tools\``;
        }
        calls.set(block.id, { name: block.name, at: i });
        continue;
      }
      // A search's result is checked by validate-tool-search.ts; here it only answers its call.
      if (block.type === 'tool_search_tool_result' && typeof block.tool_use_id === 'string') answeredAt.set(block.tool_use_id, i);
      if (typeof block.type !== 'string' || !CHECKED_RESULTS.has(block.type)) continue;
      if (message.role !== 'assistant') return `${path}: ${block.type} blocks can only be in assistant messages`;
      const id = block.tool_use_id;
      const call = typeof id === 'string' ? calls.get(id) : undefined;
      if (typeof id !== 'string' || call === undefined || RESULT_TYPE[call.name] !== block.type) {
        return `${path}: unexpected \`tool_use_id\` found in \`${block.type}\` blocks: ${String(id)}. Each \`${block.type}\` block must have a corresponding \`server_tool_use\` block before it.`;
      }
      if (answeredAt.has(id)) return `${path}: each server tool use must have a single result; found multiple \`${block.type}\` blocks with id ${id}`;
      // Answered in its own message, or (deferred beside a tool_use) in the next assistant message.
      if (call.at !== i && !(call.at === i - 2 && defersServerTools(messages, call.at))) {
        return `${path}: \`${block.type}\` block with id ${id} must follow its \`server_tool_use\` block in the same assistant message`;
      }
      if (typeof block.content !== 'object' || block.content === null) return `${path}.content: Input should be a valid list or object`;
      answeredAt.set(id, i);
    }
  }
  const last = messages.length - 1;
  for (const [id, call] of calls) {
    if (answeredAt.has(id)) continue;
    // Paused (the request continues the turn) or deferred (the tool results go back alone).
    const deferred = call.at === last - 1 && defersServerTools(messages, call.at);
    if (call.at === last || deferred) continue;
    return `messages.${call.at}: \`${call.name}\` tool use with id \`${id}\` was found without a corresponding \`${RESULT_TYPE[call.name] ?? 'server tool result'}\` block`;
  }
  return null;
}
