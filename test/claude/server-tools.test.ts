/**
 * Server tools on the request side (src/claude/server-tools.ts, src/claude/request-tools.ts): the
 * `--server-tools` spellings, the `tools` entries beside the MCP tools (and the tool search tool),
 * the cache breakpoint still valid, a clash refused, and the container sent back while it lives.
 * Every built request is checked by the fake's validator as the real API's.
 */
import type { MessageParam, Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { withCacheBreakpoints } from '../../src/claude/cache-breakpoints';
import { requestTools } from '../../src/claude/request-tools';
import {
  CONTAINER_EXPIRY_MARGIN_MS,
  formatServerTools,
  parseServerTools,
  reusableContainer,
  serverToolDefinitions,
  serverToolsProblem,
  type ServerToolDefinition,
} from '../../src/claude/server-tools';
import { TOOL_SEARCH_TOOL } from '../../src/claude/tool-search';
import { HostError } from '../../src/errors/host-error';
import { validateMessagesRequest } from '../../src/offline';

const tool = (name: string): Tool => ({ name, description: `Does ${name}.`, input_schema: { type: 'object', properties: { id: { type: 'string' } } } });
const CATALOG = [tool('get_weather'), tool('read_file')];
const HI: MessageParam[] = [{ role: 'user', content: 'hi' }];

function valid(tools: unknown, messages: MessageParam[] = HI): string | null {
  return validateMessagesRequest({ model: 'claude-sonnet-4-6', max_tokens: 64, messages, tools });
}

describe('parseServerTools / formatServerTools', () => {
  test('names, none, and max uses on web search and web fetch', () => {
    expect(parseServerTools('web_search,web_fetch,code_execution')).toEqual([{ name: 'web_search' }, { name: 'web_fetch' }, { name: 'code_execution' }]);
    expect(parseServerTools(' web_search:5 , web_fetch:2')).toEqual([{ name: 'web_search', maxUses: 5 }, { name: 'web_fetch', maxUses: 2 }]);
    expect(parseServerTools('none')).toEqual([]);
    expect(formatServerTools(parseServerTools('web_search:5,code_execution'))).toBe('web_search:5,code_execution');
    expect(formatServerTools([])).toBe('none');
    expect(formatServerTools(undefined)).toBe('none');
  });

  test('an unknown name is refused, listing the accepted ones', () => {
    expect(() => parseServerTools('web_search,browser')).toThrow(/unknown server tool "browser": expected none or a comma-separated list of web_search, web_fetch, code_execution/);
    expect(() => parseServerTools('memory')).toThrow(/web_search, web_fetch, code_execution/);
  });

  test.each([
    ['web_search:0', /positive integer/],
    ['web_search:x', /invalid server tool "web_search:x"/],
    ['web_search:1:2', /invalid server tool/],
    ['code_execution:3', /takes no maximum number of uses/],
    ['web_search,web_search:2', /listed twice/],
  ])('%s is refused', (spec, message) => {
    expect(() => parseServerTools(spec)).toThrow(message);
  });

  test('serverToolsProblem checks what a library caller passes', () => {
    expect(serverToolsProblem(undefined)).toBeUndefined();
    expect(serverToolsProblem([{ name: 'web_search', maxUses: 3 }])).toBeUndefined();
    expect(serverToolsProblem('web_search')).toMatch(/must be a list/);
    expect(serverToolsProblem([{ name: 'shell' }])).toMatch(/unknown server tool "shell"/);
    expect(serverToolsProblem([{ name: 'web_fetch', maxUses: 1.5 }])).toMatch(/positive integer/);
    expect(serverToolsProblem([{ name: 'web_fetch', max_uses: 2 }])).toMatch(/unknown field max_uses/);
  });
});

describe('serverToolDefinitions', () => {
  test('the versions every current model takes, without a beta header, typed as the SDK\'s ToolUnion', () => {
    const tools: ToolUnion[] = serverToolDefinitions([{ name: 'code_execution' }, { name: 'web_fetch' }, { name: 'web_search', maxUses: 5 }]);
    // In SERVER_TOOL_NAMES order whatever the order given: a stable prefix for the prompt cache.
    expect(tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
      { type: 'web_fetch_20250910', name: 'web_fetch' },
      { type: 'code_execution_20250825', name: 'code_execution' },
    ]);
    expect(valid(tools)).toBeNull();
    expect(serverToolDefinitions(undefined)).toEqual([]);
  });
});

describe('requestTools with server tools', () => {
  const WEB: ServerToolDefinition = { type: 'web_search_20250305', name: 'web_search' };

  test('without server tools the request is what it always was', () => {
    expect(requestTools(CATALOG, HI, undefined, [])).toEqual({ tools: CATALOG });
    expect(requestTools([], HI, undefined, undefined)).toEqual({});
  });

  test('first, beside the MCP tools; alone when there are none', () => {
    expect(requestTools(CATALOG, HI, undefined, [{ name: 'web_search' }])).toEqual({ tools: [WEB, ...CATALOG] });
    expect(requestTools([], HI, undefined, [{ name: 'web_search' }])).toEqual({ tools: [WEB] });
    expect(valid([WEB, ...CATALOG])).toBeNull();
    expect(valid([WEB])).toBeNull();
  });

  test('beside the tool search tool and the deferred tools, the tools breakpoint still on the last tool sent in full', () => {
    const fields = requestTools(CATALOG, HI, { mode: 'on', contextWindow: 1_000_000 }, [{ name: 'web_search' }, { name: 'code_execution' }]);
    const tools = fields.tools ?? [];
    expect(tools.slice(0, 3)).toEqual([WEB, { type: 'code_execution_20250825', name: 'code_execution' }, TOOL_SEARCH_TOOL]);
    expect(tools.slice(3).every((t) => t.defer_loading === true)).toBe(true);
    const marked = withCacheBreakpoints({ tools, messages: HI }, { enabled: true }).tools ?? [];
    expect(marked.map((t) => ('cache_control' in t ? t.name : undefined)).filter(Boolean)).toEqual(['tool_search_tool_bm25']);
    expect(valid(marked)).toBeNull();
  });

  test('without tool search the breakpoint goes on the last MCP tool; with server tools only, on the last server tool', () => {
    const both = withCacheBreakpoints({ tools: requestTools(CATALOG, HI, undefined, [{ name: 'web_search' }]).tools ?? [], messages: HI }, { enabled: true }).tools ?? [];
    expect(both.map((t) => 'cache_control' in t && t.cache_control !== undefined)).toEqual([false, false, true]);
    expect(valid(both)).toBeNull();
    const alone = withCacheBreakpoints({ tools: requestTools([], HI, undefined, [{ name: 'web_search' }, { name: 'web_fetch' }]).tools ?? [], messages: HI }, { enabled: true }).tools ?? [];
    expect(alone[1]).toEqual({ type: 'web_fetch_20250910', name: 'web_fetch', cache_control: { type: 'ephemeral' } });
    expect(valid(alone)).toBeNull();
  });

  test('stand-ins for a gone catalogue keep the server tools', () => {
    const called: MessageParam[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
    ];
    const fields = requestTools([], called, undefined, [{ name: 'web_search' }]);
    expect(fields.tool_choice).toEqual({ type: 'none' });
    expect(fields.tools?.map((t) => t.name)).toEqual(['web_search', 'get_weather']);
    expect(validateMessagesRequest({ model: 'm', max_tokens: 64, messages: called, ...fields })).toBeNull();
  });

  test('an MCP tool with a server tool\'s name is refused clearly, never sent', () => {
    const call = (): unknown => requestTools([tool('web_search')], HI, undefined, [{ name: 'web_search' }]);
    expect(call).toThrow(HostError);
    expect(call).toThrow(/the MCP tool "web_search" has the name of the web_search server tool/);
    try {
      call();
    } catch (err) {
      expect(err).toMatchObject({ type: 'host.invalid_request', retryable: false });
    }
    // The same name without that server tool on is the MCP tool's.
    expect(requestTools([tool('web_search')], HI, undefined, [{ name: 'web_fetch' }]).tools?.map((t) => t.name)).toEqual(['web_fetch', 'web_search']);
  });
});

describe('reusableContainer', () => {
  const now = Date.parse('2026-12-08T10:00:00Z');
  const container = { id: 'container_011CPR5CNjB747bTd36fQLFk', expiresAt: '2026-12-08T10:30:00Z' };

  test('sent back while code execution is on and the container lives', () => {
    expect(reusableContainer(container, [{ name: 'code_execution' }], now)).toBe(container.id);
  });

  test('not without code execution, without a container, or near or past its expiry', () => {
    expect(reusableContainer(container, [{ name: 'web_search' }], now)).toBeUndefined();
    expect(reusableContainer(undefined, [{ name: 'code_execution' }], now)).toBeUndefined();
    const soon = Date.parse(container.expiresAt) - CONTAINER_EXPIRY_MARGIN_MS + 1;
    expect(reusableContainer(container, [{ name: 'code_execution' }], soon)).toBeUndefined();
    expect(reusableContainer({ ...container, expiresAt: 'not a date' }, [{ name: 'code_execution' }], now)).toBeUndefined();
  });
});
