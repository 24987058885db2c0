import { renderStatus } from '../../src/client/render-status';
import { newConversationState, recordModelCall, statusOf } from '../../src/conversation/conversation-state';
import { conversationOptions } from '../../src/client/conversation-options';

describe('renderStatus', () => {
  test('lists the calls waiting for approval, one a line', () => {
    const state = newConversationState(conversationOptions({}));
    state.currentTurn = 2;
    for (const [id, city] of [['toolu_1', '北京'], ['toolu_2', '上海']] as const) {
      state.approvals.push({ toolUseId: id, tool: 'get_weather', server: 'weather', mcpTool: 'get_weather', arguments: { city }, since: '2026-12-03T14:00:00.123Z', turnId: 2 });
    }
    const text = renderStatus(statusOf(state, false));
    expect(text.split('\n').slice(-2)).toEqual([
      'waiting for approval: get_weather {"city":"北京"} · weather (toolu_1, since 2026-12-03T14:00:00Z)',
      '                      get_weather {"city":"上海"} · weather (toolu_2, since 2026-12-03T14:00:00Z)',
    ]);
    expect(renderStatus(statusOf(newConversationState(conversationOptions({})), false))).not.toContain('approval');
  });

  test('server tools: their counts in a line of their own, and what the cost leaves out', () => {
    const state = newConversationState(conversationOptions({}));
    expect(renderStatus(statusOf(state, false))).not.toContain('server tools');
    recordModelCall(state, { input_tokens: 0, output_tokens: 0, server_tool_use: { web_search_requests: 2, web_fetch_requests: 1 }, code_execution_calls: 1 }, 'end_turn');
    const text = renderStatus(statusOf(state, false));
    expect(text).toContain('server tools: web search 2, web fetch 1, code execution 1');
    expect(text).toContain('cost: $0.0200 (estimate; code execution container time not included: billed per container-hour after the free hours)');
  });
});
