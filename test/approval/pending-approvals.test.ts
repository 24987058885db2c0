import {
  approvalRequestProblem,
  cancelledWhileWaitingText,
  decideApprovals,
  policyDeniedText,
  removeApproval,
  userDeclinedText,
  waitingApprovals,
  type ApprovalEntry,
} from '../../src/approval/pending-approvals';

const entry = (toolUseId: string, tool = 'get_weather'): ApprovalEntry => ({
  toolUseId,
  tool,
  server: 'weather',
  mcpTool: tool,
  arguments: { city: '北京' },
  since: '2026-12-03T14:00:00.000Z',
  turnId: 1,
});

describe('pending approvals (src/approval/pending-approvals.ts)', () => {
  test('approving one by one: each decision settles only the named call', () => {
    const entries = [entry('toolu_a'), entry('toolu_b')];
    expect(decideApprovals(entries, { toolUseIds: ['toolu_b'] }, { kind: 'approved' }).map((p) => p.toolUseId)).toEqual(['toolu_b']);
    expect(waitingApprovals(entries).map((p) => p.toolUseId)).toEqual(['toolu_a']);
    expect(decideApprovals(entries, { toolUseIds: ['toolu_a'] }, { kind: 'denied', reason: 'no' })).toHaveLength(1);
    expect(waitingApprovals(entries)).toEqual([]);
    expect(entries.map((e) => e.decision)).toEqual([{ kind: 'denied', reason: 'no' }, { kind: 'approved' }]);
  });

  test('no ids (or an empty list) decides every waiting call, not the decided ones', () => {
    const entries = [entry('toolu_a'), entry('toolu_b'), entry('toolu_c')];
    decideApprovals(entries, { toolUseIds: ['toolu_a'] }, { kind: 'denied' });
    expect(decideApprovals(entries, undefined, { kind: 'approved' }).map((p) => p.toolUseId)).toEqual(['toolu_b', 'toolu_c']);
    expect(entries[0]?.decision).toEqual({ kind: 'denied' });
    const more = [entry('toolu_d')];
    expect(decideApprovals(more, { toolUseIds: [] }, { kind: 'approved' })).toHaveLength(1);
  });

  test('the waiting list hides the decision field and keeps what the status shows', () => {
    const entries = [entry('toolu_a')];
    expect(waitingApprovals(entries)).toEqual([
      { toolUseId: 'toolu_a', tool: 'get_weather', server: 'weather', mcpTool: 'get_weather', arguments: { city: '北京' }, since: '2026-12-03T14:00:00.000Z', turnId: 1 },
    ]);
    removeApproval(entries, 'toolu_a');
    removeApproval(entries, 'toolu_missing');
    expect(entries).toEqual([]);
  });

  test('the validator refuses requests that name nothing waiting, in one clear sentence', () => {
    expect(approvalRequestProblem([], undefined, 'approve')).toBe('nothing to approve: no tool call of this conversation waits for approval');
    const entries = [entry('toolu_a'), entry('toolu_b', 'write_file')];
    expect(approvalRequestProblem(entries, undefined, 'approve')).toBeUndefined();
    expect(approvalRequestProblem(entries, { toolUseIds: ['toolu_b'] }, 'deny')).toBeUndefined();
    expect(approvalRequestProblem(entries, { toolUseIds: ['toolu_x'] }, 'approve')).toBe(
      'no tool call waits for approval with id "toolu_x"; waiting: toolu_a (get_weather), toolu_b (write_file)',
    );
    decideApprovals(entries, { toolUseIds: ['toolu_a'] }, { kind: 'approved' });
    expect(approvalRequestProblem(entries, { toolUseIds: ['toolu_a'] }, 'deny')).toBe('"toolu_a" was already decided; waiting: toolu_b (write_file)');
    expect(approvalRequestProblem(entries, { toolUseIds: [''] }, 'deny')).toBe('toolUseIds must be a list of tool_use ids');
    expect(approvalRequestProblem(entries, { reason: 'x' }, 'approve')).toBe('only a deny takes a reason');
    expect(approvalRequestProblem(entries, { reason: 'x'.repeat(2001) }, 'deny')).toMatch(/longer than 2000 characters/);
  });

  test("the host's is_error texts say who stopped the call and why", () => {
    expect(userDeclinedText('write_file')).toBe('[host] Not run: the user declined the call of tool "write_file".');
    expect(userDeclinedText('write_file', '  not\nthat file ')).toBe('[host] Not run: the user declined the call of tool "write_file". Their reason: not that file');
    expect(policyDeniedText('rm', 'fs')).toMatch(/^\[host\] Not run: the host's policy does not allow tool "rm" \(server "fs" is set to approval "deny"\)/);
    expect(cancelledWhileWaitingText('rm')).toBe('[host] Not run: the turn was cancelled while tool "rm" waited for the user\'s approval.');
  });
});
