/**
 * The API's tool search, emulated server-side (issue 29): a `server_tool_use` of
 * `tool_search_tool_bm25` (natural-language `query`) or `tool_search_tool_regex` (a regex `query`)
 * in an answer is followed, in the same answer, by the `tool_search_tool_result` the real API
 * would put there: `tool_reference` blocks naming the best matches among the request's deferred
 * tools (BM25 over name, description and argument names and descriptions; at most 5). Works for
 * scripted and rules answers alike, streamed or not, since it runs before the body is built.
 */
import type {
  ServerToolUseBlock,
  ToolReferenceBlock,
  ToolSearchToolResultBlock,
} from '@anthropic-ai/sdk/resources/messages';
import type { AnswerContentBlock, MessageAnswer } from './messages-api-answer';
import { randomId } from './random-id';

type Json = Record<string, unknown>;

/** The most references one search returns (the API's docs: 3–5 of the most relevant). */
export const MAX_TOOL_REFERENCES = 5;
/** The API's tool search tools, by the name their `server_tool_use` blocks carry. */
export const TOOL_SEARCH_NAMES = ['tool_search_tool_bm25', 'tool_search_tool_regex'] as const;
/** The `type`s a request may give each search tool. */
export const TOOL_SEARCH_TYPES: Readonly<Record<string, (typeof TOOL_SEARCH_NAMES)[number]>> = {
  tool_search_tool_bm25_20251119: 'tool_search_tool_bm25',
  tool_search_tool_bm25: 'tool_search_tool_bm25',
  tool_search_tool_regex_20251119: 'tool_search_tool_regex',
  tool_search_tool_regex: 'tool_search_tool_regex',
};
/** The regex variant's longest query (the API's docs: 200 characters). */
const MAX_REGEX_QUERY = 200;
const BM25_K1 = 1.2;
const BM25_B = 0.75;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deferred tool as search sees it: its name and the text it is found by. */
export interface SearchableTool {
  name: string;
  text: string;
}

/** The request's tools with `defer_loading: true`, with name, description and argument names and descriptions. */
export function deferredTools(tools: unknown): SearchableTool[] {
  if (!Array.isArray(tools)) return [];
  return (tools as unknown[]).filter(isRecord).flatMap((tool) => {
    if (tool.defer_loading !== true || typeof tool.name !== 'string') return [];
    const schema = isRecord(tool.input_schema) ? tool.input_schema : {};
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const args = Object.entries(properties).map(([name, prop]) => `${name} ${isRecord(prop) && typeof prop.description === 'string' ? prop.description : ''}`);
    const description = typeof tool.description === 'string' ? tool.description : '';
    return [{ name: tool.name, text: [tool.name, description, ...args].join(' ') }];
  });
}

/** Lower-case words, with names split at `_`, `-` and camelCase. */
function terms(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

/** The names of the best BM25 matches of `query` among `tools`, best first (only tools sharing a term). */
export function bm25Search(query: string, tools: readonly SearchableTool[], limit: number = MAX_TOOL_REFERENCES): string[] {
  const docs = tools.map((tool) => ({ name: tool.name, terms: terms(tool.text) }));
  const average = docs.reduce((sum, d) => sum + d.terms.length, 0) / Math.max(1, docs.length);
  const queryTerms = [...new Set(terms(query))];
  const scored = docs.map((doc) => {
    let score = 0;
    for (const term of queryTerms) {
      const tf = doc.terms.filter((t) => t === term).length;
      if (tf === 0) continue;
      const n = docs.filter((d) => d.terms.includes(term)).length;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * doc.terms.length) / Math.max(1, average)));
    }
    return { name: doc.name, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit)
    .map((s) => s.name);
}

/** The names of the tools whose text the regex `query` finds (Python's `(?i)` read as the `i` flag), in order. */
export function regexSearch(query: string, tools: readonly SearchableTool[], limit: number = MAX_TOOL_REFERENCES): string[] {
  const insensitive = query.startsWith('(?i)');
  const pattern = new RegExp(insensitive ? query.slice(4) : query, insensitive ? 'i' : '');
  return tools.filter((tool) => pattern.test(tool.text)).slice(0, limit).map((tool) => tool.name);
}

/** The result block of one search: references, or the API's error object for a query it cannot run. */
export function searchResult(use: Pick<ServerToolUseBlock, 'id' | 'name' | 'input'>, tools: readonly SearchableTool[]): ToolSearchToolResultBlock {
  const query = isRecord(use.input) ? use.input.query : undefined;
  const error = (message: string): ToolSearchToolResultBlock => ({
    type: 'tool_search_tool_result',
    tool_use_id: use.id,
    content: { type: 'tool_search_tool_result_error', error_code: 'invalid_tool_input', error_message: message },
  });
  if (typeof query !== 'string' || query.trim() === '') return error('query must be a non-empty string');
  let names: string[];
  if (use.name === 'tool_search_tool_regex') {
    if (query.length > MAX_REGEX_QUERY) return error(`query must be at most ${MAX_REGEX_QUERY} characters`);
    try {
      names = regexSearch(query, tools);
    } catch {
      return error('query is not a valid regular expression');
    }
  } else {
    names = bm25Search(query, tools);
  }
  const references: ToolReferenceBlock[] = names.map((tool_name) => ({ type: 'tool_reference', tool_name }));
  return { type: 'tool_search_tool_result', tool_use_id: use.id, content: { type: 'tool_search_tool_search_result', tool_references: references } };
}

function isSearchUse(block: AnswerContentBlock): block is Extract<AnswerContentBlock, { type: 'server_tool_use' }> {
  return block.type === 'server_tool_use' && (TOOL_SEARCH_NAMES as readonly string[]).includes(block.name);
}

/**
 * The answer with every tool search it holds run: each search `server_tool_use` gets an id (when it
 * has none) and, right after it, its `tool_search_tool_result` over the request's deferred tools,
 * unless the answer already gives one. Other answers are returned as they are.
 */
export function withToolSearchResults(answer: MessageAnswer, request: unknown): MessageAnswer {
  if (!answer.content.some(isSearchUse)) return answer;
  const tools = deferredTools(isRecord(request) ? request.tools : undefined);
  const given = new Set(answer.content.flatMap((b) => (b.type === 'tool_search_tool_result' ? [b.tool_use_id] : [])));
  const content: AnswerContentBlock[] = [];
  for (const block of answer.content) {
    if (!isSearchUse(block)) {
      content.push(block);
      continue;
    }
    const use = { ...block, id: block.id ?? randomId('srvtoolu_') };
    content.push(use);
    if (!given.has(use.id)) content.push(searchResult(use, tools));
  }
  return { ...answer, content };
}
