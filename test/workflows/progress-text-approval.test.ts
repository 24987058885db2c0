import { conversationOptions } from '../../src/client/conversation-options';
import { newConversationState } from '../../src/conversation/conversation-state';
import { currentDetails, pendingApprovalLine } from '../../src/workflows/progress-text';

describe('current details: calls waiting for approval', () => {
  const pending = {
    toolUseId: 'toolu_01',
    tool: 'fs__write_file',
    server: 'fs',
    mcpTool: 'write_file',
    arguments: { path: '/tmp/a', content: 'x' },
    since: '2026-12-03T14:00:00.123Z',
    turnId: 1,
  };

  test('one line per waiting call: MCP tool, arguments, server, tool_use id, since (whole seconds)', () => {
    expect(pendingApprovalLine(pending)).toBe('write_file {"path":"/tmp/a","content":"x"} · fs (toolu_01, since 2026-12-03T14:00:00Z)');
  });

  test('the details say what waits instead of the activity that ran last; decided calls are not listed', () => {
    const state = newConversationState(conversationOptions({}));
    state.currentTurn = 1;
    state.approvals.push({ ...pending }, { ...pending, toolUseId: 'toolu_02', decision: { kind: 'approved' } });
    const details = currentDetails(state, { ended: false, activity: 'asking Claude (claude round 1)', toolsRunning: [] });
    expect(details.split('\n').slice(0, 2)).toEqual([
      '**running** · turn 1',
      '**waiting for approval** (1): write_file {"path":"/tmp/a","content":"x"} · fs (toolu_01, since 2026-12-03T14:00:00Z)',
    ]);
    expect(details).not.toContain('now: asking Claude');
    state.approvals.length = 0;
    expect(currentDetails(state, { ended: false, activity: 'asking Claude (claude round 1)', toolsRunning: [] })).toContain('now: asking Claude');
  });
});
