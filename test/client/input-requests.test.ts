import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { listPendingApprovals } from '../../src/client/approvals';
import { errorLine } from '../../src/client/cli';
import { answeredMeanwhile, respondToInput } from '../../src/client/input-requests';
import { PROGRESS_ATTRIBUTES, WAITING_INPUT_ATTRIBUTE } from '../../src/workflows/progress-attributes';
import { formInput, urlInput } from './input-fixtures';

const call = { toolUseId: 'toolu_1', tool: 'get_weather', server: 'weather', mcpTool: 'get_weather', arguments: {}, since: '2026-12-03T14:00:00.000Z', turnId: 3 };

/** A client of one namespace: its registered attributes, its running conversations' statuses (an Error: no worker answers). */
function fakeClient(options: { attributes: string[]; statuses?: Record<string, unknown>; update?: () => Promise<unknown>; missing?: boolean }) {
  const queries: string[] = [];
  const updates: unknown[] = [];
  const statuses = options.statuses ?? {};
  const client = {
    options: { namespace: 'default' },
    connection: {
      operatorService: {
        listSearchAttributes: () => Promise.resolve({ customAttributes: Object.fromEntries(options.attributes.map((name) => [name, 1])) }),
      },
    },
    workflow: {
      list: ({ query }: { query: string }) => {
        queries.push(query);
        return (function* () {
          for (const workflowId of Object.keys(statuses)) yield { workflowId };
        })();
      },
      getHandle: (id: string) => ({
        describe: () => (options.missing ? Promise.reject(new WorkflowNotFoundError('not found', id, undefined)) : Promise.resolve({})),
        query: () => (statuses[id] instanceof Error ? Promise.reject(statuses[id]) : Promise.resolve(statuses[id])),
        executeUpdate: (update: { name: string }, { args }: { args: unknown[] }) => {
          updates.push({ update: update.name, args });
          return options.update?.() ?? Promise.resolve({ answered: formInput, stillWaiting: 0 });
        },
      }),
    },
  } as unknown as Client;
  return { client, queries, updates };
}

const ALL = PROGRESS_ATTRIBUTES.map((key) => key.name);

describe('respond (src/client/input-requests.ts)', () => {
  test('executes the respondToInput update with the request', async () => {
    const { client, updates } = fakeClient({ attributes: ALL });
    const answer = await respondToInput(client, 'c1', { requestId: 'in_form', action: 'accept', content: { name: 'Ada' } });
    expect(answer).toEqual({ answered: formInput, stillWaiting: 0 });
    expect(updates).toEqual([{ update: 'respondToInput', args: [{ requestId: 'in_form', action: 'accept', content: { name: 'Ada' } }] }]);
  });

  test("the validator's refusal comes back as its one line", async () => {
    const refusal = 'field "age": must be an integer, not "x"';
    const { client } = fakeClient({
      attributes: ALL,
      update: () => Promise.reject(new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.create({ message: refusal }))),
    });
    const err = await respondToInput(client, 'c1', { requestId: 'in_form', action: 'accept', content: { age: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(refusal);
    expect(errorLine(err)).toBe(refusal);
  });

  test('an unknown conversation says so', async () => {
    const { client } = fakeClient({ attributes: ALL, missing: true });
    await expect(respondToInput(client, 'nope', { requestId: 'in_x', action: 'cancel' })).rejects.toThrow('no conversation with id "nope"');
  });

  test('refusals that mean answered meanwhile, and the others', () => {
    expect(answeredMeanwhile('in_x was already answered (decline)')).toBe('decline');
    expect(answeredMeanwhile('no input request waits with id "in_x"; nothing waits')).toBe('gone');
    expect(answeredMeanwhile('field "age": must be an integer, not "x"')).toBeUndefined();
  });
});

describe('pending lists conversations waiting for input too (listPendingApprovals)', () => {
  test('by either attribute where the namespace has the input one, each with its calls and its requests', async () => {
    const { client, queries } = fakeClient({
      attributes: [...ALL, WAITING_INPUT_ATTRIBUTE.name],
      statuses: {
        both: { pendingApprovals: [call], pendingInputs: [urlInput] },
        input: { pendingApprovals: [], pendingInputs: [formInput] },
        caughtUp: { pendingApprovals: [], pendingInputs: [] },
        older: { pendingApprovals: [call] },
        down: new Error('no worker'),
      },
    });
    expect(await listPendingApprovals(client, { taskQueue: 'q' })).toEqual([
      { id: 'both', pending: [call], pendingInputs: [urlInput] },
      { id: 'input', pending: [], pendingInputs: [formInput] },
      { id: 'older', pending: [call], pendingInputs: [] },
      { id: 'down', pending: [], pendingInputs: [], error: 'no worker' },
    ]);
    expect(queries).toEqual([
      `WorkflowType = 'conversationWorkflow' AND ExecutionStatus = 'Running' AND (McpHostWaitingApproval = true OR McpHostWaitingInput = true) AND TaskQueue = "q"`,
    ]);
  });

  test('by the approval attribute alone where the namespace lacks the input one', async () => {
    const { client, queries } = fakeClient({ attributes: ALL, statuses: { c1: { pendingApprovals: [call], pendingInputs: [] } } });
    expect(await listPendingApprovals(client)).toEqual([{ id: 'c1', pending: [call], pendingInputs: [] }]);
    expect(queries).toEqual([`WorkflowType = 'conversationWorkflow' AND ExecutionStatus = 'Running' AND McpHostWaitingApproval = true`]);
  });
});
