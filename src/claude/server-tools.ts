/**
 * Claude's server tools, per conversation: web search, web fetch and code execution. The API runs
 * them itself, inside one Messages API call: a reply carries a `server_tool_use` block and the
 * tool's `*_tool_result` block (or stops with `pause_turn` to be sent back and continued), never a
 * `tool_use` for the host to run. Plain data: the setting lives in the conversation's options
 * (`--server-tools`, `StartOptions.serverTools`, `MCP_HOST_SERVER_TOOLS`), and the `--server-tools`
 * spellings are read and written here. Pure: no Node built-ins; the SDK is imported for types only.
 *
 * The versions sent are the ones every current model takes, without a beta header (the SDK lists
 * them in the non-beta `ToolUnion`): `web_search_20250305`, `web_fetch_20250910` and
 * `code_execution_20250825` (Python and bash, with the file editor: its blocks are named
 * `bash_code_execution` and `text_editor_code_execution`). The newer web search and web fetch
 * versions (`_20260209` and later) filter results with code execution of their own and are offered
 * on fewer models; the newer code execution versions add REPL state for programmatic tool calling,
 * which this host does not use.
 */
import type {
  CodeExecutionTool20250825,
  WebFetchTool20250910,
  WebSearchTool20250305,
} from '@anthropic-ai/sdk/resources/messages';

/** A server tool a conversation may offer, by the name Claude calls it. */
export type ServerToolName = 'web_search' | 'web_fetch' | 'code_execution';

/** The server tools, in the order they go out in `tools`. */
export const SERVER_TOOL_NAMES: readonly ServerToolName[] = ['web_search', 'web_fetch', 'code_execution'];

/** One server tool of a conversation: its name and, for web search and web fetch, the API's `max_uses` per request. */
export interface ServerToolSpec {
  name: ServerToolName;
  /** At most this many uses per Messages API call (`max_uses`); web search and web fetch only. */
  maxUses?: number;
}

/** A server tool as a request's `tools` entry carries it. */
export type ServerToolDefinition = WebSearchTool20250305 | WebFetchTool20250910 | CodeExecutionTool20250825;

/** The `server_tool_use` names of code execution: its Python tool, and the bash and file editor of `_20250825`. */
export const CODE_EXECUTION_CALL_NAMES: ReadonlySet<string> = new Set(['code_execution', 'bash_code_execution', 'text_editor_code_execution']);

const WITH_MAX_USES: ReadonlySet<ServerToolName> = new Set(['web_search', 'web_fetch']);

const USAGE = `expected none or a comma-separated list of ${SERVER_TOOL_NAMES.join(', ')} (web_search:N and web_fetch:N: at most N uses per Claude call)`;

/** Whether `value` names a server tool. */
export function isServerToolName(value: unknown): value is ServerToolName {
  return typeof value === 'string' && (SERVER_TOOL_NAMES as readonly string[]).includes(value);
}

/**
 * Parses `none` (no server tools) or `web_search,web_fetch,code_execution` with an optional `:N`
 * (`max_uses`) on web search and web fetch; throws naming the accepted forms otherwise.
 */
export function parseServerTools(spec: string): ServerToolSpec[] {
  const text = spec.trim();
  if (text === 'none' || text === '') return [];
  const specs = text.split(',').map((part): ServerToolSpec => {
    const [name = '', uses, ...rest] = part.trim().split(':');
    if (!isServerToolName(name)) throw new Error(`unknown server tool ${JSON.stringify(name)}: ${USAGE}`);
    if (uses === undefined) return { name };
    if (rest.length > 0 || !/^\d+$/.test(uses)) throw new Error(`invalid server tool ${JSON.stringify(part.trim())}: ${USAGE}`);
    return { name, maxUses: Number(uses) };
  });
  const problem = serverToolsProblem(specs);
  if (problem !== undefined) throw new Error(problem);
  return specs;
}

/** The setting in the form {@link parseServerTools} reads. */
export function formatServerTools(specs: readonly ServerToolSpec[] | undefined): string {
  if (specs === undefined || specs.length === 0) return 'none';
  return specs.map((s) => (s.maxUses !== undefined ? `${s.name}:${s.maxUses}` : s.name)).join(',');
}

/**
 * Why `value` is not a list of server tools a conversation can offer (it may come from a library
 * caller or over the wire), or undefined: known names, each once, `maxUses` a positive integer and
 * only on web search and web fetch.
 */
export function serverToolsProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return `serverTools must be a list such as [{ name: 'web_search' }], got ${JSON.stringify(value)}`;
  const seen = new Set<string>();
  for (const spec of value as unknown[]) {
    const name = typeof spec === 'object' && spec !== null ? (spec as { name?: unknown }).name : undefined;
    if (!isServerToolName(name)) return `unknown server tool ${JSON.stringify(name ?? spec)}: ${USAGE}`;
    if (seen.has(name)) return `server tool ${name} is listed twice`;
    seen.add(name);
    const { maxUses, ...rest } = spec as ServerToolSpec;
    const extra = Object.keys(rest).filter((k) => k !== 'name');
    if (extra.length > 0) return `server tool ${name}: unknown field ${extra.join(', ')} (only name and maxUses)`;
    if (maxUses === undefined) continue;
    if (!WITH_MAX_USES.has(name)) return `server tool ${name} takes no maximum number of uses (only web_search and web_fetch do)`;
    if (!Number.isSafeInteger(maxUses) || maxUses < 1) return `server tool ${name}: the maximum number of uses must be a positive integer, got ${String(maxUses)}`;
  }
  return undefined;
}

/** One server tool's `tools` entry. */
function definition(spec: ServerToolSpec): ServerToolDefinition {
  const limit = spec.maxUses !== undefined ? { max_uses: spec.maxUses } : {};
  switch (spec.name) {
    case 'web_search':
      return { type: 'web_search_20250305', name: 'web_search', ...limit };
    case 'web_fetch':
      return { type: 'web_fetch_20250910', name: 'web_fetch', ...limit };
    case 'code_execution':
      return { type: 'code_execution_20250825', name: 'code_execution' };
    default: {
      const unknown: never = spec.name;
      throw new Error(`unknown server tool ${String(unknown)}`);
    }
  }
}

/** The `tools` entries of a conversation's server tools, in {@link SERVER_TOOL_NAMES} order (a stable prefix for the prompt cache). */
export function serverToolDefinitions(specs: readonly ServerToolSpec[] | undefined): ServerToolDefinition[] {
  if (specs === undefined || specs.length === 0) return [];
  const order = (s: ServerToolSpec): number => SERVER_TOOL_NAMES.indexOf(s.name);
  return [...specs].sort((a, b) => order(a) - order(b)).map(definition);
}

/** A code execution container as a reply names it, for the next calls to reuse. */
export interface ContainerRef {
  id: string;
  /** ISO 8601: after this the API refuses the id. */
  expiresAt: string;
}

/**
 * How long before its expiry a container is no longer sent: a call may be retried, or wait in a
 * queue, after the check.
 */
export const CONTAINER_EXPIRY_MARGIN_MS = 60_000;

/**
 * The `container` a request sends: the conversation's last container while code execution is on
 * and the container has not (nearly) expired, so the code Claude runs next sees the files and
 * packages of the code it ran before (and a paused turn continues in the same container).
 * Otherwise nothing: the API starts a new one.
 */
export function reusableContainer(container: ContainerRef | undefined, specs: readonly ServerToolSpec[] | undefined, now: number): string | undefined {
  if (container === undefined || !(specs ?? []).some((s) => s.name === 'code_execution')) return undefined;
  const expires = Date.parse(container.expiresAt);
  return Number.isFinite(expires) && expires - CONTAINER_EXPIRY_MARGIN_MS > now ? container.id : undefined;
}
