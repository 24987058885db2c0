/**
 * The fakes' tool search (src/offline/tool-search-emulation.ts, validate-tool-search.ts): BM25 over
 * the request's deferred tools, the result the fake puts after a scripted or rules `server_tool_use`
 * in both wire forms, read back through the real SDK, and the 400s the API gives a bad combination.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { BadRequestError } from '@anthropic-ai/sdk';
import type { Message, MessageParam, Tool, ToolSearchToolResultBlock } from '@anthropic-ai/sdk/resources/messages';
import { bm25Search, respondByRules, validateMessagesRequest, withToolSearchResults } from '../../src/offline';
import { toRequestContent } from '../../src/claude/reply-content';
import { startFakeMessagesApi, type FakeMessagesApi } from '../../src/testing';
import { caught, MODEL, sdkClientFor } from '../support/fake-api-client';

const SEARCH = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' } as const;
const tool = (name: string, description: string): Tool => ({
  name,
  description,
  input_schema: { type: 'object', properties: { city: { type: 'string', description: 'a city name' } }, required: ['city'] },
  defer_loading: true,
});
const DEFERRED = [
  tool('get_weather', 'Current weather for a city: temperature and sky'),
  tool('get_forecast', 'Weather forecast for the next days'),
  tool('list_issues', 'Lists the open issues of a repository'),
  tool('read_file', 'Reads a file from the workspace'),
];
const TOOLS = [SEARCH, ...DEFERRED];
const ASK: MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];

function references(block: unknown): string[] {
  const result = block as ToolSearchToolResultBlock;
  return result.content.type === 'tool_search_tool_search_result' ? result.content.tool_references.map((r) => r.tool_name) : [];
}

describe('bm25Search', () => {
  test('ranks the tools that share the query terms, best first, only those', () => {
    const docs = DEFERRED.map((t) => ({ name: t.name, text: `${t.name} ${t.description ?? ''}` }));
    expect(bm25Search('weather right now in a city', docs)[0]).toBe('get_weather');
    expect(bm25Search('forecast', docs)).toEqual(['get_forecast']);
    expect(bm25Search('zebra', docs)).toEqual([]);
  });
});

describe('the fake Messages API runs tool search', () => {
  let fake: FakeMessagesApi;
  let client: Anthropic;
  beforeAll(async () => {
    fake = await startFakeMessagesApi();
    client = sdkClientFor(fake.url);
  });
  afterAll(async () => {
    await fake.close();
  });

  const script = (): void =>
    fake.enqueue({
      kind: 'message',
      content: [
        { type: 'server_tool_use', name: 'tool_search_tool_bm25', input: { query: 'current weather city' } },
        { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
    });

  test.each([false, true])('a scripted search gets its result in the SDK shapes (streamed: %s), and goes back valid', async (stream) => {
    script();
    const params = { model: MODEL, max_tokens: 256, tools: TOOLS, messages: ASK };
    const message: Message = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
    expect(message.content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    const [use, result] = message.content;
    expect(use).toMatchObject({ type: 'server_tool_use', name: 'tool_search_tool_bm25', input: { query: 'current weather city' }, caller: { type: 'direct' } });
    expect(use?.type === 'server_tool_use' && use.id).toMatch(/^srvtoolu_/);
    expect(result).toMatchObject({ type: 'tool_search_tool_result', tool_use_id: use?.type === 'server_tool_use' ? use.id : '' });
    expect(references(result)[0]).toBe('get_weather');
    // Sent back as the host sends it, with the call's result, the next request is valid.
    const toolUse = message.content[2];
    const next: MessageParam[] = [
      ...ASK,
      { role: 'assistant', content: toRequestContent(message.content) },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse?.type === 'tool_use' ? toolUse.id : '', content: 'sunny' }] },
    ];
    expect(validateMessagesRequest({ ...params, messages: next })).toBeNull();
  });

  test('defer_loading on every tool with no search tool: the API\'s 400 invalid_request_error', async () => {
    const error = await caught(client.messages.create({ model: MODEL, max_tokens: 64, tools: DEFERRED, messages: ASK }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain('All tools have defer_loading set. At least one tool must be non-deferred.');
    expect((error as BadRequestError).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});

describe('validation of tool search', () => {
  const body = (tools: unknown, messages: MessageParam[] = ASK): unknown => ({ model: MODEL, max_tokens: 64, tools, messages });
  test('deferred tools need a search tool; the search tool is never deferred; references name known tools', () => {
    expect(validateMessagesRequest(body(TOOLS))).toBeNull();
    expect(validateMessagesRequest(body([...DEFERRED, { name: 'plain', input_schema: { type: 'object' } }]))).toMatch(/require a tool search tool/);
    expect(validateMessagesRequest(body([{ ...SEARCH, defer_loading: true }, ...DEFERRED]))).toMatch(/All tools have defer_loading set|cannot have defer_loading/);
    const answered: MessageParam[] = [
      ...ASK,
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'x' } },
          { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'nope' }] } },
        ],
      },
      { role: 'user', content: 'go on' },
    ];
    expect(validateMessagesRequest(body(TOOLS, answered))).toMatch(/Tool reference 'nope' not found/);
  });
});

describe('the offline stand-in searches before it calls a deferred tool', () => {
  test('server_tool_use, then (once run) the result naming the tool, then the call', () => {
    const request = { model: MODEL, max_tokens: 64, tools: TOOLS, messages: [{ role: 'user', content: 'weather forecast for Paris' }] };
    const answer = withToolSearchResults(respondByRules(request), request);
    const types = answer.content.map((b) => b.type);
    expect(types).toEqual(['text', 'server_tool_use', 'tool_search_tool_result', 'tool_use']);
    const call = answer.content[3];
    expect(references(answer.content[2])).toContain(call?.type === 'tool_use' ? call.name : '');
  });
});
