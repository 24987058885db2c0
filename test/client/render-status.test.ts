import { renderStatus } from '../../src/client/render-status';
import { newConversationState, statusOf } from '../../src/conversation/conversation-state';
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
});
