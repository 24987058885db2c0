import { approvalQuestion, parsePromptAnswer } from '../../src/client/approval-prompt';

describe("chat's approval prompt (src/client/approval-prompt.ts)", () => {
  test.each([
    ['y', { kind: 'approve' }],
    [' YES ', { kind: 'approve' }],
    ['a', { kind: 'approve_all' }],
    ['all', { kind: 'approve_all' }],
    ['', { kind: 'deny' }],
    ['n', { kind: 'deny' }],
    ['no', { kind: 'deny' }],
    ['n not that city', { kind: 'deny', reason: 'not that city' }],
    ['no: too risky', { kind: 'deny', reason: 'too risky' }],
    ['maybe', { kind: 'deny' }],
    ['nope', { kind: 'deny' }],
  ])('%j is %j', (line, expected) => {
    expect(parsePromptAnswer(line)).toEqual(expected);
  });

  test('the question names the MCP tool, its arguments and server', () => {
    expect(
      approvalQuestion({ toolUseId: 'toolu_1', tool: 'weather__get_weather', server: 'weather', mcpTool: 'get_weather', arguments: { city: '北京' }, since: '2026-12-03T14:00:00.000Z', turnId: 1 }),
    ).toBe('approve get_weather {"city":"北京"} · weather? [y/N/a(ll)] ');
  });
});
