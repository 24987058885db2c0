/**
 * Server tools in the conversation's state (pure, no Temporal): a paused reply is continued in the
 * same assistant message, its blocks kept exactly; a server tool call the turn ended before the API
 * answered is dropped at the turn's end, so the next request stays valid; the usage counts what the
 * API ran; and an MCP tool never gets a server tool's name.
 */
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { toRequestContent } from '../../src/claude/reply-content';
import { appendAssistant, appendMessages, closeServerToolUses, newConversationState, recordModelCall, statusOf } from '../../src/conversation/conversation-state';
import { conversationOptions } from '../../src/client/conversation-options';
import { digestOf } from '../../src/conversation/digest';
import { withStableToolNames } from '../../src/conversation/stable-tool-names';
import { decideOnStopReason } from '../../src/conversation/stop-decision';
import { withoutUnansweredServerToolUses } from '../../src/conversation/transcript';
import type { ToolCatalog, ToolRouteEntry } from '../../src/conversation/types';
import { validateMessagesRequest } from '../../src/offline';
import { citedText, webSearchResult, webSearchUse } from '../support/server-tool-blocks';
import { serverToolDefinitions } from '../../src/claude/server-tools';

const TOOLS = serverToolDefinitions([{ name: 'web_search' }]);
const valid = (messages: MessageParam[]): string | null => validateMessagesRequest({ model: 'm', max_tokens: 64, tools: TOOLS, messages });

describe('a paused turn (pause_turn)', () => {
  test('continues: the reply is kept as sent, and the continuation joins the same assistant message', () => {
    expect(decideOnStopReason('pause_turn')).toEqual({ kind: 'continue' });
    const state = newConversationState(conversationOptions({ serverTools: [{ name: 'web_search' }] }));
    appendMessages(state, { role: 'user', content: 'What is durable execution?' });
    const paused = toRequestContent([webSearchUse('srvtoolu_1', 'durable execution'), webSearchResult('srvtoolu_1')]);
    appendAssistant(state, paused);
    // The request that continues the turn ends with the paused message, exactly as the API sent it.
    expect(state.messages.at(-1)).toEqual({ role: 'assistant', content: [webSearchUse('srvtoolu_1', 'durable execution'), webSearchResult('srvtoolu_1')] });
    expect(valid(state.messages)).toBeNull();
    appendAssistant(state, toRequestContent([citedText('It keeps programs running.')]));
    expect(state.messages).toHaveLength(2);
    expect((state.messages[1]?.content as unknown[]).map((b) => (b as { type: string }).type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(state.digest).toBe(digestOf(state.messages));
    closeServerToolUses(state);
    expect(state.messages[1]?.content).toHaveLength(3);
  });
});

describe('withoutUnansweredServerToolUses', () => {
  const ask: MessageParam = { role: 'user', content: 'q' };

  test('nothing to drop: null, and nothing copied', () => {
    expect(withoutUnansweredServerToolUses([ask, { role: 'assistant', content: toRequestContent([webSearchUse('srvtoolu_1', 'q'), webSearchResult('srvtoolu_1')]) }])).toBeNull();
    expect(withoutUnansweredServerToolUses([ask, { role: 'assistant', content: 'plain' }])).toBeNull();
  });

  test('a paused call the turn ended before (iteration limit, failure, cancel) goes; an empty message says why', () => {
    const paused: MessageParam = { role: 'assistant', content: toRequestContent([citedText('Searching.'), webSearchUse('srvtoolu_2', 'q')]) };
    const closed = withoutUnansweredServerToolUses([ask, paused]);
    expect(closed?.[1]).toEqual({ role: 'assistant', content: [citedText('Searching.')] });
    const only: MessageParam = { role: 'assistant', content: toRequestContent([webSearchUse('srvtoolu_3', 'q')]) };
    expect(withoutUnansweredServerToolUses([ask, only])?.[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '[host: 1 server tool call(s) removed: the turn ended before the API answered them]' }],
    });
    // The next turn's user message may then follow: without the drop, the API's 400.
    const next: MessageParam = { role: 'user', content: 'and?' };
    expect(valid([ask, paused, next])).toMatch(/was found without a corresponding `web_search_tool_result` block/);
    expect(valid([...(closed ?? []), next])).toBeNull();
  });

  test('a call deferred beside a tool_use and answered in the next reply stays; one never answered goes', () => {
    const deferred: MessageParam = {
      role: 'assistant',
      content: [...toRequestContent([webSearchUse('srvtoolu_4', 'q')]), { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }],
    };
    const results: MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] };
    const answered: MessageParam = { role: 'assistant', content: toRequestContent([webSearchResult('srvtoolu_4'), citedText('Sunny.')]) };
    expect(withoutUnansweredServerToolUses([ask, deferred, results, answered])).toBeNull();
    const closed = withoutUnansweredServerToolUses([ask, deferred, results]);
    expect(closed?.[1]?.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }]);
  });

  test('closeServerToolUses recomputes the digest when it drops something', () => {
    const state = newConversationState(conversationOptions({}));
    appendMessages(state, ask, { role: 'assistant', content: toRequestContent([citedText('Searching.'), webSearchUse('srvtoolu_5', 'q')]) });
    const before = state.digest;
    closeServerToolUses(state);
    expect(state.messages[1]?.content).toEqual([citedText('Searching.')]);
    expect(state.digest).not.toBe(before);
    expect(state.digest).toBe(digestOf(state.messages));
  });
});

describe('usage of server tools in the status', () => {
  test('searches, fetches and code execution calls add up; the cost has the searches and says what it leaves out', () => {
    const state = newConversationState(conversationOptions({ model: 'claude-sonnet-4-6' }));
    recordModelCall(state, { input_tokens: 0, output_tokens: 0, server_tool_use: { web_search_requests: 2, web_fetch_requests: 1 } }, 'pause_turn');
    recordModelCall(state, { input_tokens: 0, output_tokens: 0, server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 }, code_execution_calls: 2 }, 'end_turn');
    const status = statusOf(state, false);
    expect(status.usage).toMatchObject({ webSearchRequests: 3, webFetchRequests: 1, codeExecutionCalls: 2 });
    expect(status.cost).toEqual({ usd: 0.03, priced: true, note: expect.stringContaining('code execution container time not included') });
  });
});

describe('stable tool names beside server tools', () => {
  function catalog(entries: Array<[name: string, server: string]>): ToolCatalog {
    const tools = entries.map(([name]) => ({ name, description: name, input_schema: { type: 'object' as const } }));
    const routes = entries.map(([name, server]): ToolRouteEntry => [name, { server, name, idempotent: false, timeoutMs: 1000 }]);
    return { digest: digestOf([tools, routes]), tools, routes };
  }

  test('an MCP tool named like one of the conversation\'s server tools is renamed; without that server tool it keeps its name', () => {
    const listed = catalog([['web_search', 'brave'], ['get_weather', 'weather']]);
    const renamed = withStableToolNames(listed, [], ['web_search', 'code_execution']);
    const [search, weather] = renamed.catalog.tools.map((t) => t.name);
    expect(search).toMatch(/^web_search_[0-9a-f]{8}$/);
    expect(weather).toBe('get_weather');
    expect(renamed.given).toEqual([['brave', 'web_search', search], ['weather', 'get_weather', 'get_weather']]);
    // The name stays across listings.
    expect(withStableToolNames(listed, renamed.given, ['web_search']).catalog.tools[0]?.name).toBe(search);
    expect(withStableToolNames(listed, []).catalog).toBe(listed);
  });
});
