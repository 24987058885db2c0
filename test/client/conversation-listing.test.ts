import { TypedSearchAttributes } from '@temporalio/common';
import { listedProgress, listQuery } from '../../src/client/conversation-listing';
import { STATE_ATTRIBUTE, TOOL_CALLS_ATTRIBUTE, TURNS_ATTRIBUTE } from '../../src/workflows/progress-attributes';

const status = (name: string) => ({ name, code: 0 }) as never;

describe('a listed conversation', () => {
  test('the query: one row per conversation, task queue and state when asked; quotes refused', () => {
    expect(listQuery('conversationWorkflow', { taskQueue: 'q', state: 'idle' })).toBe(
      `WorkflowType = 'conversationWorkflow' AND ExecutionStatus != 'ContinuedAsNew' AND TaskQueue = "q" AND McpHostState = "idle"`,
    );
    expect(() => listQuery('conversationWorkflow', { taskQueue: 'a"b' })).toThrow(/taskQueue with quotes/);
  });

  test('state from the attribute, else the memo, else the status; a closed execution says how it closed', () => {
    const attributes = new TypedSearchAttributes([
      { key: STATE_ATTRIBUTE, value: 'running' },
      { key: TURNS_ATTRIBUTE, value: 2 },
      { key: TOOL_CALLS_ATTRIBUTE, value: 5 },
    ]);
    const none = new TypedSearchAttributes();
    expect(listedProgress({ status: status('RUNNING'), memo: { state: 'idle', lastMessage: 'hi' }, typedSearchAttributes: attributes })).toEqual({
      state: 'running',
      turns: 2,
      toolCalls: 5,
      lastMessage: 'hi',
    });
    expect(listedProgress({ status: status('RUNNING'), memo: { state: 'idle', turns: 1 }, typedSearchAttributes: none })).toEqual({ state: 'idle', turns: 1 });
    expect(listedProgress({ status: status('RUNNING'), memo: undefined, typedSearchAttributes: none })).toEqual({ state: 'open' });
    expect(listedProgress({ status: status('COMPLETED'), memo: { state: 'idle' }, typedSearchAttributes: none }).state).toBe('ended');
    expect(listedProgress({ status: status('TERMINATED'), memo: { state: 'idle' }, typedSearchAttributes: attributes }).state).toBe('terminated');
  });
});
