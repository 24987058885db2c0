import { renderApprovalAnswer, renderPendingApprovals, waitingNotice } from '../../src/client/approvals';

const call = { toolUseId: 'toolu_1', tool: 'get_weather', server: 'weather', mcpTool: 'get_weather', arguments: { city: '北京' }, since: '2026-12-03T14:00:00.000Z', turnId: 3 };

describe('approval texts of the CLI (src/client/approvals.ts)', () => {
  test('pending: each conversation, its turn, its waiting calls; one whose status could not be read says so', () => {
    expect(renderPendingApprovals([])).toBe('no tool call waits for approval');
    expect(renderPendingApprovals([{ id: 'c1', pending: [call] }, { id: 'c2', pending: [], error: 'no worker' }])).toBe(
      ['c1  (turn 3)', '  get_weather {"city":"北京"} · weather (toolu_1, since 2026-12-03T14:00:00Z)', 'c2  (waiting, but its calls could not be read: no worker)'].join('\n'),
    );
  });

  test('approve/deny answers and the waiting send notice', () => {
    expect(renderApprovalAnswer('approved', { decided: [call], stillWaiting: 2 })).toBe('approved toolu_1 (get_weather); 2 still waiting');
    expect(renderApprovalAnswer('denied', { decided: [call], stillWaiting: 0 })).toBe('denied toolu_1 (get_weather)');
    expect(waitingNotice('c1', [call]).split('\n')).toEqual([
      'turn 3 of c1 waits for approval of 1 tool call:',
      '  get_weather {"city":"北京"} · weather (toolu_1, since 2026-12-03T14:00:00Z)',
      'approve: mcp-host approve c1 [TOOL_USE_ID…]   deny: mcp-host deny c1 [TOOL_USE_ID…] [--reason TEXT]',
      'the turn goes on once decided; its answer then shows in mcp-host status c1 / history c1',
    ]);
  });
});
