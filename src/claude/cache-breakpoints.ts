/**
 * Prompt-caching breakpoints (`cache_control`) for one Messages API request, so each round of the
 * tool loop re-reads the unchanged prefix (tools → system → earlier messages) from the cache
 * instead of paying for it again. Pure: returns new objects, never mutates its input.
 */
import type {
  CacheControlEphemeral,
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { RequestTool } from './tool-search';

/** The API rejects a request with more breakpoints than this. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** The parts of a request that breakpoints go on. */
export interface CacheableRequest {
  system?: string | TextBlockParam[];
  tools?: RequestTool[];
  messages: MessageParam[];
}

/** Prompt caching settings of a conversation. */
export interface CacheOptions {
  enabled: boolean;
  /** Cache lifetime; the API's default is 5 minutes. `1h` writes cost more (2× input instead of 1.25×). */
  ttl?: '5m' | '1h';
}

type Breakable = Exclude<ContentBlockParam, { type: 'thinking' } | { type: 'redacted_thinking' }>;

/** Whether a block may carry a breakpoint: not a thinking block (the API refuses), not blank text. */
function isBreakable(block: ContentBlockParam): block is Breakable {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return block.type !== 'text' || block.text.trim() !== '';
}

function hasMark(value: object): boolean {
  return 'cache_control' in value && value.cache_control !== null && value.cache_control !== undefined;
}

/** Breakpoints already in the request (including inside tool results): they count against the limit. */
function countMarks(request: CacheableRequest): number {
  let count = 0;
  const blocks = (content: string | readonly ContentBlockParam[]): void => {
    if (typeof content === 'string') return;
    for (const block of content) {
      if (hasMark(block)) count += 1;
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (const inner of block.content) if (hasMark(inner)) count += 1;
      }
    }
  };
  if (request.system !== undefined) blocks(request.system);
  for (const tool of request.tools ?? []) if (hasMark(tool)) count += 1;
  for (const message of request.messages) blocks(message.content);
  return count;
}

/** The index of the last tool sent in full (not `defer_loading`), or -1. */
function lastLoadedTool(tools: readonly RequestTool[]): number {
  for (let i = tools.length - 1; i >= 0; i--) if (tools[i]?.defer_loading !== true) return i;
  return -1;
}

/** The message with a breakpoint on its last breakable block, or null when it has none (or one already). */
function markedMessage(message: MessageParam, mark: CacheControlEphemeral): MessageParam | null {
  if (message.role === 'system') return null;
  const blocks: ContentBlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i];
    if (block === undefined || !isBreakable(block)) continue;
    if (hasMark(block)) return null;
    blocks[i] = { ...block, cache_control: mark };
    return { role: message.role, content: blocks };
  }
  return null;
}

/** The system prompt as blocks with a breakpoint on its last non-blank block, or null when there is none. */
function markedSystem(system: string | TextBlockParam[] | undefined, mark: CacheControlEphemeral): TextBlockParam[] | null {
  if (system === undefined) return null;
  const blocks: TextBlockParam[] = typeof system === 'string' ? [{ type: 'text', text: system }] : [...system];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i];
    if (block === undefined || block.text.trim() === '') continue;
    if (hasMark(block)) return null;
    blocks[i] = { ...block, cache_control: mark };
    return blocks;
  }
  return null;
}

/**
 * The request with breakpoints, in this order while the limit of {@link MAX_CACHE_BREAKPOINTS}
 * (counting any already present) allows:
 * 1. the last breakable block of the last message — the moving end, so the next round reads all of
 *    this request from the cache;
 * 2. the system prompt (a string becomes one text block) — caches tools + system even when the
 *    messages are rewritten (a context strategy moved its cut);
 * 3. the last tool that is not deferred (tool search: a deferred tool is not part of the prompt's
 *    prefix) — caches the tool list even when the system prompt changes;
 * 4. the last block of the previous user message — where the previous request ended, so its cache
 *    entry is found even when this round added more blocks than the API's 20-block lookback.
 * Never on thinking blocks or blank text. Disabled: the request itself is returned, unchanged.
 */
export function withCacheBreakpoints<R extends CacheableRequest>(request: R, options: CacheOptions): R {
  if (!options.enabled) return request;
  const mark: CacheControlEphemeral = options.ttl !== undefined ? { type: 'ephemeral', ttl: options.ttl } : { type: 'ephemeral' };
  let budget = MAX_CACHE_BREAKPOINTS - countMarks(request);
  const messages = [...request.messages];
  let system = request.system;
  let tools = request.tools;

  const last = messages.length - 1;
  const lastMessage = messages[last];
  if (budget > 0 && lastMessage !== undefined) {
    const marked = markedMessage(lastMessage, mark);
    if (marked) {
      messages[last] = marked;
      budget -= 1;
    }
  }
  if (budget > 0) {
    const marked = markedSystem(system, mark);
    if (marked) {
      system = marked;
      budget -= 1;
    }
  }
  const toolAt = tools === undefined ? -1 : lastLoadedTool(tools);
  const lastTool = tools?.[toolAt];
  if (budget > 0 && tools !== undefined && lastTool !== undefined && !hasMark(lastTool)) {
    tools = tools.map((tool, i) => (i === toolAt ? { ...tool, cache_control: mark } : tool));
    budget -= 1;
  }
  // The previous request ended with the user message before the latest assistant reply.
  const previous = last - 2;
  const previousMessage = messages[previous];
  if (budget > 0 && previousMessage?.role === 'user' && messages[last - 1]?.role === 'assistant') {
    const marked = markedMessage(previousMessage, mark);
    if (marked) messages[previous] = marked;
  }
  return {
    ...request,
    ...(system !== undefined ? { system } : {}),
    ...(tools !== undefined ? { tools } : {}),
    messages,
  };
}
