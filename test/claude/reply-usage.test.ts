/**
 * A reply's usage as the host records it (src/claude/reply-usage.ts) and the reply as `callClaude`
 * returns it (src/activities/to-claude-reply.ts): the API's server tool counters, code execution
 * calls counted from the blocks (the API has no counter for them), and the code execution container.
 */
import type { Message, Usage } from '@anthropic-ai/sdk/resources/messages';
import { toReplyUsage } from '../../src/claude/reply-usage';
import { toClaudeReply } from '../../src/activities/to-claude-reply';
import { bashResult, bashUse, webSearchResult, webSearchUse } from '../support/server-tool-blocks';

const usage = (extra: Partial<Usage> = {}): Usage => ({
  input_tokens: 100,
  output_tokens: 20,
  cache_creation_input_tokens: null,
  cache_read_input_tokens: null,
  cache_creation: null,
  inference_geo: null,
  output_tokens_details: null,
  server_tool_use: null,
  service_tier: 'standard',
  speed: null,
  ...extra,
});

describe('toReplyUsage', () => {
  test('without server tools: the four token counters, as before', () => {
    expect(toReplyUsage(usage())).toEqual({ input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(toReplyUsage(usage({ server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 } }))).not.toHaveProperty('server_tool_use');
  });

  test('the API\'s web search and fetch counts; code execution calls counted from the blocks', () => {
    const content = [webSearchUse('srvtoolu_1', 'q'), webSearchResult('srvtoolu_1'), bashUse('srvtoolu_2', 'ls'), bashResult('srvtoolu_2', ''), bashUse('srvtoolu_3', 'pwd')];
    expect(toReplyUsage(usage({ server_tool_use: { web_search_requests: 1, web_fetch_requests: 2 } }), content)).toMatchObject({
      server_tool_use: { web_search_requests: 1, web_fetch_requests: 2 },
      code_execution_calls: 2,
    });
  });
});

describe('toClaudeReply', () => {
  const message = (extra: Partial<Message>): Message => ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'text', text: 'done', citations: null }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    stop_details: null,
    container: null,
    usage: usage(),
    ...extra,
  } as Message);

  test('the container code execution used, for later calls; none without it', () => {
    expect(toClaudeReply(message({ container: { id: 'container_1', expires_at: '2026-12-08T10:30:00Z', skills: null } })).container).toEqual({
      id: 'container_1',
      expiresAt: '2026-12-08T10:30:00Z',
    });
    expect(toClaudeReply(message({})).container).toBeUndefined();
    expect('container' in toClaudeReply(message({}))).toBe(false);
  });
});
