/**
 * The fake's checks of server tools, as the real API refuses malformed ones with a 400
 * `invalid_request_error` (src/offline/validate-server-tools.ts, run by validateMessagesRequest for
 * the offline stand-in and `durable-mcp-host/testing` alike): the `tools` entries, the `container`,
 * and the blocks sent back. Replies are built as the SDK's types and sent back through the host's
 * own `toRequestContent`, so what the host sends is what is checked.
 */
import type { ContentBlock, MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { toRequestContent } from '../../src/claude/reply-content';
import { serverToolDefinitions } from '../../src/claude/server-tools';
import { validateMessagesRequest } from '../../src/offline';
import { bashResult, bashUse, citedText, webFetchResult, webFetchUse, webSearchResult, webSearchUse } from '../support/server-tool-blocks';

const WEATHER = { name: 'get_weather', description: 'Weather of a city.', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const ALL: ToolUnion[] = [...serverToolDefinitions([{ name: 'web_search' }, { name: 'web_fetch' }, { name: 'code_execution' }]), WEATHER as ToolUnion];
const ASK: MessageParam = { role: 'user', content: 'What is durable execution?' };

function request(messages: MessageParam[], tools: unknown = ALL, extra: Record<string, unknown> = {}): string | null {
  return validateMessagesRequest({ model: 'claude-sonnet-4-6', max_tokens: 256, tools, messages, ...extra });
}

/** An assistant message as the host sends a reply back. */
const assistant = (...blocks: ContentBlock[]): MessageParam => ({ role: 'assistant', content: toRequestContent(blocks) });

describe('server tool definitions', () => {
  test('the host\'s definitions pass; a wrong version, name or max_uses is refused', () => {
    expect(request([ASK])).toBeNull();
    expect(request([ASK], [{ type: 'web_search_20990101', name: 'web_search' }])).toMatch(/tools\.0: Input tag 'web_search_20990101' found using 'type' does not match any of the expected tags/);
    expect(request([ASK], [{ type: 'web_search_20250305', name: 'search' }])).toBe("tools.0.web_search_20250305.name: Input should be 'web_search'");
    expect(request([ASK], [{ type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 0 }])).toMatch(/max_uses: Input should be greater than 0/);
    expect(request([ASK], [{ type: 'code_execution_20250825', name: 'code_execution', max_uses: 2 }])).toMatch(/max_uses: Extra inputs are not permitted/);
    expect(request([ASK], [{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['a.com'], blocked_domains: ['b.com'] }])).toMatch(/Cannot specify both/);
  });

  test('an MCP tool of a server tool\'s name beside it: tool names must be unique', () => {
    expect(request([ASK], [...ALL, { ...WEATHER, name: 'web_search' }])).toBe('tools: Tool names must be unique.');
  });

  test('the container: an id or an object', () => {
    expect(request([ASK], ALL, { container: 'container_011CPR5CNjB747bTd36fQLFk' })).toBeNull();
    expect(request([ASK], ALL, { container: { id: 'container_1' } })).toBeNull();
    expect(request([ASK], ALL, { container: 7 })).toMatch(/^container: /);
  });
});

describe('server tool blocks sent back', () => {
  test('a search, its results and a cited answer, as the SDK returns them, go back valid', () => {
    const reply = assistant(webSearchUse('srvtoolu_01', 'durable execution'), webSearchResult('srvtoolu_01'), citedText('It keeps programs running.'));
    expect(request([ASK, reply, { role: 'user', content: 'thanks' }])).toBeNull();
    // The host sent them back exactly: toRequestContent changed nothing but text's shape.
    expect(reply.content).toEqual([webSearchUse('srvtoolu_01', 'durable execution'), webSearchResult('srvtoolu_01'), citedText('It keeps programs running.')]);
  });

  test('web fetch and code execution results', () => {
    const url = 'https://example.com/a';
    const reply = assistant(webFetchUse('srvtoolu_f', url), webFetchResult('srvtoolu_f', url), bashUse('srvtoolu_b', 'ls'), bashResult('srvtoolu_b', 'a.txt\n'));
    expect(request([ASK, reply, { role: 'user', content: 'ok' }])).toBeNull();
  });

  test('a paused turn: its last server tool use may go unanswered while the request ends with it', () => {
    const paused = assistant(webSearchUse('srvtoolu_02', 'q'));
    expect(request([ASK, paused])).toBeNull();
    // A new user message after it: the API's 400.
    expect(request([ASK, paused, { role: 'user', content: 'and?' }])).toBe(
      'messages.1: `web_search` tool use with id `srvtoolu_02` was found without a corresponding `web_search_tool_result` block',
    );
  });

  test('deferred beside a tool_use: unanswered while the next message holds only its tool results, answered at the head of the next reply', () => {
    const deferred: MessageParam = {
      role: 'assistant',
      content: [...toRequestContent([webSearchUse('srvtoolu_03', 'q')]), { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
    };
    const results: MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] };
    expect(request([ASK, deferred, results])).toBeNull();
    expect(request([ASK, deferred, results, assistant(webSearchResult('srvtoolu_03'), citedText('Sunny, and durable.')), { role: 'user', content: 'ok' }])).toBeNull();
    // Text beside the tool results: the deferred search cannot run.
    const withText: MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }, { type: 'text', text: 'also this' }] };
    expect(request([ASK, deferred, withText])).toMatch(/^messages\.1: `web_search` tool use with id `srvtoolu_03` was found without a corresponding `web_search_tool_result` block$/);
  });

  test('a server tool use whose name is no server tool of the request', () => {
    const reply = assistant(webSearchUse('srvtoolu_04', 'q'), webSearchResult('srvtoolu_04'));
    expect(request([ASK, reply, { role: 'user', content: 'ok' }], [WEATHER])).toBe('messages.1.content.0: `web_search` server tool use requires a `web_search` tool in `tools`');
    const bash = assistant(bashUse('srvtoolu_05', 'ls'), bashResult('srvtoolu_05', ''));
    expect(request([ASK, bash, { role: 'user', content: 'ok' }], [{ type: 'code_execution_20250522', name: 'code_execution' }])).toMatch(
      /`bash_code_execution` server tool use requires a code_execution tool of version code_execution_20250825/,
    );
  });

  test('a result without its server tool use, of another kind, twice, or in a user message', () => {
    expect(request([ASK, assistant(webSearchResult('srvtoolu_06')), { role: 'user', content: 'ok' }])).toBe(
      'messages.1.content.0: unexpected `tool_use_id` found in `web_search_tool_result` blocks: srvtoolu_06. Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it.',
    );
    const url = 'https://example.com';
    expect(request([ASK, assistant(webSearchUse('srvtoolu_07', 'q'), webFetchResult('srvtoolu_07', url)), { role: 'user', content: 'ok' }])).toMatch(/unexpected `tool_use_id` found in `web_fetch_tool_result` blocks: srvtoolu_07/);
    expect(request([ASK, assistant(webSearchUse('srvtoolu_08', 'q'), webSearchResult('srvtoolu_08'), webSearchResult('srvtoolu_08')), { role: 'user', content: 'ok' }])).toMatch(/single result/);
    const inUser: MessageParam = { role: 'user', content: toRequestContent([webSearchResult('srvtoolu_09')]) };
    expect(request([inUser])).toMatch(/web_search_tool_result blocks can only be in assistant messages/);
  });

  test('a tool_result answering a server tool\'s id: the API\'s pairing 400', () => {
    const reply = assistant(webSearchUse('srvtoolu_10', 'q'), webSearchResult('srvtoolu_10'));
    const answer: MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'srvtoolu_10', content: 'found it' }] };
    expect(request([ASK, reply, answer])).toMatch(/unexpected tool_use_id found in tool_result blocks: srvtoolu_10/);
  });
});
