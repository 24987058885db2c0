import { addUsage, NO_USAGE } from '../../src/conversation/usage-totals';

describe('usage totals (S8: usage is recorded from every response)', () => {
  test('NO_USAGE is all zeros', () => {
    expect(NO_USAGE).toEqual({ inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });
  });

  test('adds every counter of a reply', () => {
    const once = addUsage(NO_USAGE, { input_tokens: 120, output_tokens: 30, cache_creation_input_tokens: 7, cache_read_input_tokens: 5 });
    const twice = addUsage(once, { input_tokens: 200, output_tokens: 12, cache_creation_input_tokens: 1, cache_read_input_tokens: 100 });
    expect(twice).toEqual({ inputTokens: 320, outputTokens: 42, cacheCreationInputTokens: 8, cacheReadInputTokens: 105 });
  });

  test('cache counters the API left out or sent as null count as zero', () => {
    const totals = { inputTokens: 1, outputTokens: 2, cacheCreationInputTokens: 3, cacheReadInputTokens: 4 };
    expect(addUsage(totals, { input_tokens: 10, output_tokens: 20 })).toEqual({
      inputTokens: 11,
      outputTokens: 22,
      cacheCreationInputTokens: 3,
      cacheReadInputTokens: 4,
    });
    expect(addUsage(totals, { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: null, cache_read_input_tokens: null })).toEqual(totals);
  });

  test('returns new totals and leaves its inputs alone', () => {
    const totals = { ...NO_USAGE };
    const result = addUsage(totals, { input_tokens: 5, output_tokens: 5 });
    expect(totals).toEqual(NO_USAGE);
    expect(NO_USAGE.inputTokens).toBe(0);
    expect(result).not.toBe(totals);
  });

  test('server tools: counted only once used, so totals without them keep their shape', () => {
    const plain = addUsage(NO_USAGE, { input_tokens: 1, output_tokens: 1 });
    expect(plain).toEqual({ inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });
    const searched = addUsage(plain, { input_tokens: 1, output_tokens: 1, server_tool_use: { web_search_requests: 2, web_fetch_requests: 0 } });
    expect(searched).toEqual({ inputTokens: 2, outputTokens: 2, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, webSearchRequests: 2 });
    const more = addUsage(searched, { input_tokens: 0, output_tokens: 0, server_tool_use: { web_search_requests: 1, web_fetch_requests: 3 }, code_execution_calls: 4 });
    expect(more).toMatchObject({ webSearchRequests: 3, webFetchRequests: 3, codeExecutionCalls: 4 });
  });

  test('totals recorded before server tools (no such fields) load and add up as zero', () => {
    const old = JSON.parse('{"inputTokens":10,"outputTokens":5,"cacheCreationInputTokens":0,"cacheReadInputTokens":0}') as typeof NO_USAGE;
    expect(addUsage(old, { input_tokens: 0, output_tokens: 0, server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } })).toEqual({ ...old, webSearchRequests: 1 });
  });
});
