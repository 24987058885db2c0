/**
 * Tool search on the request side (src/claude/tool-search.ts): when the catalogue goes deferred
 * beside the BM25 search tool, what mcp.json's per-server settings change, and that the request
 * is unchanged without it. Every built request is checked by the fake's validator as the real API's.
 */
import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { withCacheBreakpoints } from '../../src/claude/cache-breakpoints';
import { requestTools } from '../../src/claude/request-tools';
import { AUTO_TOOL_SEARCH_SHARE, TOOL_SEARCH_TOOL, toolDefinitionTokens, withToolSearch } from '../../src/claude/tool-search';
import { toolLoading } from '../../src/mcp/tool-loading';
import { validateMessagesRequest } from '../../src/offline';

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  description: `Does ${name.replace(/_/g, ' ')}.`,
  input_schema: { type: 'object', properties: { id: { type: 'string' } } },
  ...extra,
});
const CATALOG = [tool('read_file'), tool('write_file'), tool('list_issues')];
const HI: MessageParam[] = [{ role: 'user', content: 'hi' }];
const BIG_WINDOW = 1_000_000;

function valid(tools: unknown): string | null {
  return validateMessagesRequest({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: HI, tools });
}

describe('withToolSearch', () => {
  test('off, auto under the threshold, and a call without the setting: the catalogue as it is', () => {
    for (const setting of [{ mode: 'off' as const, contextWindow: 10 }, { mode: 'auto' as const, contextWindow: BIG_WINDOW }, undefined]) {
      expect(withToolSearch(CATALOG, HI, setting)).toEqual(CATALOG);
    }
    expect(requestTools(CATALOG, HI, { mode: 'auto', contextWindow: BIG_WINDOW })).toEqual({ tools: CATALOG });
  });

  test('on: the search tool first, every tool deferred, and the API accepts it', () => {
    const tools = withToolSearch(CATALOG, HI, { mode: 'on', contextWindow: BIG_WINDOW });
    expect(tools[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(tools.slice(1)).toEqual(CATALOG.map((t) => ({ ...t, defer_loading: true })));
    expect(valid(tools)).toBeNull();
  });

  test('auto turns on past 10% of the context window', () => {
    const tokens = toolDefinitionTokens(CATALOG);
    const under = Math.ceil(tokens / AUTO_TOOL_SEARCH_SHARE) + 10;
    const over = Math.floor(tokens / AUTO_TOOL_SEARCH_SHARE) - 10;
    expect(withToolSearch(CATALOG, HI, { mode: 'auto', contextWindow: under })).toEqual(CATALOG);
    expect(withToolSearch(CATALOG, HI, { mode: 'auto', contextWindow: over })[0]).toEqual(TOOL_SEARCH_TOOL);
  });

  test('mcp.json: alwaysLoaded and deferLoading false stay loaded; deferLoading true defers under the threshold too', () => {
    const catalog = [tool('read_file', { defer_loading: false }), tool('write_file', { defer_loading: true }), tool('list_issues')];
    const on = withToolSearch(catalog, HI, { mode: 'on', contextWindow: BIG_WINDOW });
    expect(on.slice(1)).toEqual([tool('read_file'), tool('write_file', { defer_loading: true }), tool('list_issues', { defer_loading: true })]);
    const auto = withToolSearch(catalog, HI, { mode: 'auto', contextWindow: BIG_WINDOW });
    expect(auto).toEqual([TOOL_SEARCH_TOOL, tool('read_file'), tool('write_file', { defer_loading: true }), tool('list_issues')]);
    // off: the config's marks are taken off, so the request is what it was before tool search.
    expect(withToolSearch(catalog, HI, { mode: 'off', contextWindow: 10 })).toEqual(CATALOG);
    expect(valid(on)).toBeNull();
    expect(valid(auto)).toBeNull();
  });

  test('every tool kept loaded: no search tool, nothing deferred', () => {
    const catalog = CATALOG.map((t) => ({ ...t, defer_loading: false }));
    expect(withToolSearch(catalog, HI, { mode: 'on', contextWindow: 10 })).toEqual(CATALOG);
  });

  test('a conversation that searched keeps the search tool, so its search blocks can go back', () => {
    const searched: MessageParam[] = [
      ...HI,
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'file' } },
          { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'read_file' }] } },
          { type: 'text', text: 'found it' },
        ],
      },
      { role: 'user', content: 'thanks' },
    ];
    const tools = withToolSearch(CATALOG, searched, { mode: 'auto', contextWindow: BIG_WINDOW });
    expect(tools[0]).toEqual(TOOL_SEARCH_TOOL);
    expect(validateMessagesRequest({ model: 'm', max_tokens: 64, messages: searched, tools })).toBeNull();
  });

  test('the tools breakpoint goes on the last tool sent in full, never on a deferred one', () => {
    const tools = withToolSearch([tool('a', { defer_loading: false }), tool('b'), tool('c')], HI, { mode: 'on', contextWindow: BIG_WINDOW });
    const marked = withCacheBreakpoints({ tools, messages: HI }, { enabled: true }).tools ?? [];
    expect(marked.map((t) => ('cache_control' in t ? t.cache_control : undefined))).toEqual([undefined, { type: 'ephemeral' }, undefined, undefined]);
    expect(validateMessagesRequest({ model: 'm', max_tokens: 64, messages: HI, tools: marked })).toBeNull();
  });
});

describe('toolLoading (mcp.json deferLoading, alwaysLoaded)', () => {
  test('alwaysLoaded wins; otherwise the server setting; unset when neither', () => {
    expect(toolLoading({ deferLoading: true, alwaysLoaded: ['a'] }, 'a')).toBe(false);
    expect(toolLoading({ deferLoading: true, alwaysLoaded: ['a'] }, 'b')).toBe(true);
    expect(toolLoading({ alwaysLoaded: ['a'] }, 'a')).toBe(false);
    expect(toolLoading({ deferLoading: false }, 'b')).toBe(false);
    expect(toolLoading({}, 'b')).toBeUndefined();
  });
});
