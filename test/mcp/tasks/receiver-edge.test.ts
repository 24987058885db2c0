/**
 * The host as a 2025-11-25 task receiver (src/mcp/tasks/receiver-edge.ts): a real SDK v1 server
 * sends `elicitation/create` and `sampling/createMessage` as tasks to the host's SDK v2 client, over
 * an in-memory pair, and polls them with the SDK's own `tasks/*` requests (whose answers it
 * validates): the capability declared in `initialize`, `input_required` while the call's asker
 * waits, `tasks/result` blocking until the answer, a failed task's error, cancellation, unknown
 * ids, and the answer of a connection with no call in flight. Then server-everything's async tools
 * through the pool and the `callTool` activity.
 */
import { Client, type Transport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageResultSchema, CreateTaskResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ServerInputRequest } from '../../../src/input/input-requests';
import type { ServerInputResponse } from '../../../src/input/input-responses';
import type { McpServerConfig } from '../../../src/mcp/config';
import { McpConnections } from '../../../src/mcp/mcp-connections';
import { beginAsking, installServerRequestHandlers, type CallAsker } from '../../../src/mcp/server-requests';
import { installTaskReceiver } from '../../../src/mcp/tasks/receiver-edge';
import { clientOptionsFor } from '../../../src/mcp/transport/negotiation';
import { createCallTool } from '../../../src/activities/call-tool';
import type { ToolCallInput, ToolCallOutput } from '../../../src/activities/types';
import { quietActivityEnvironment } from '../../fixtures/mock-activities';
import { everythingServer } from '../../fixtures/reference-servers';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

const config = (sampling: 'auto' | 'deny' = 'auto'): McpServerConfig => ({ name: 'r', transport: 'stdio', command: 'unused', args: [], env: {}, tools: {}, sampling });

const form = {
  method: 'elicitation/create' as const,
  params: { message: 'Your name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } } },
};
const completion = {
  method: 'sampling/createMessage' as const,
  params: { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Say hi' } }], maxTokens: 20 },
};

/** An asker whose answers the test gives, one per request, in order. */
function heldAsker(): CallAsker & { asked: ServerInputRequest[]; withdrawals: Array<AbortSignal | undefined>; answer(response: ServerInputResponse): void } {
  const asked: ServerInputRequest[] = [];
  const withdrawals: Array<AbortSignal | undefined> = [];
  const waiting: Array<(response: ServerInputResponse) => void> = [];
  return {
    roots: [],
    asked,
    withdrawals,
    ask: (request, withdrawn) => {
      asked.push(request);
      withdrawals.push(withdrawn);
      return new Promise((resolve) => waiting.push(resolve));
    },
    answer: (response) => waiting.shift()?.(response),
  };
}

/** Whether `promise` is still pending after the event loop turned a few times. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  return !settled;
}

describe('the host as a task receiver (2025-11-25), against an SDK v1 server', () => {
  let server: Server;
  let client: Client;

  async function connect(sampling: 'auto' | 'deny' = 'auto'): Promise<void> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    server = new Server({ name: 'requestor', version: '1.0.0' }, { capabilities: {} });
    client = new Client({ name: 'host', version: '0' }, clientOptionsFor({ ...config(sampling), protocolVersion: '2025-11-25' }));
    installServerRequestHandlers(client, config(sampling));
    const transport = clientSide as unknown as Transport;
    installTaskReceiver(client, transport, config(sampling));
    await server.connect(serverSide);
    await client.connect(transport);
  }
  const asTask = <P extends object>(request: { method: string; params: P }, ttl = 60_000) =>
    server.request({ method: request.method, params: { ...request.params, task: { ttl } } }, CreateTaskResultSchema);

  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  test('initialize declares the receiver: elicitation and sampling as tasks, list and cancel', async () => {
    await connect();
    expect(server.getClientCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { elicitation: { create: {} }, sampling: { createMessage: {} } } });
    // The host's other capabilities stay.
    expect(server.getClientCapabilities()).toMatchObject({ elicitation: { form: {} }, sampling: {} });
  });

  test('a form as a task: input_required while the call’s asker waits, tasks/result blocks until the answer, then completed', async () => {
    await connect();
    const asker = heldAsker();
    const stop = beginAsking(client, asker);
    try {
      const { task } = await asTask(form, 120_000);
      expect(task).toMatchObject({ status: 'input_required', ttl: 120_000, pollInterval: 1000 });
      expect(typeof task.createdAt).toBe('string');
      expect(typeof task.lastUpdatedAt).toBe('string');
      // The asker got the request as a plain one: without its task.
      expect(asker.asked).toEqual([{ method: 'elicitation/create', params: form.params }]);

      expect(await server.experimental.tasks.getTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'input_required' });
      const result = server.experimental.tasks.getTaskResult(task.taskId, ElicitResultSchema);
      expect(await pending(result)).toBe(true);

      asker.answer({ result: { action: 'accept', content: { name: 'Grace' } } });
      await expect(result).resolves.toEqual({ action: 'accept', content: { name: 'Grace' }, _meta: { [RELATED_TASK]: { taskId: task.taskId } } });
      expect(await server.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'completed' });
      // tasks/result again: the same answer.
      await expect(server.experimental.tasks.getTaskResult(task.taskId, ElicitResultSchema)).resolves.toMatchObject({ action: 'accept' });
      expect((await server.experimental.tasks.listTasks()).tasks.map((t) => [t.taskId, t.status])).toEqual([[task.taskId, 'completed']]);
    } finally {
      stop();
    }
  });

  test('a completion as a task: working, then failed with the error a plain request would have got', async () => {
    await connect();
    const asker = heldAsker();
    const stop = beginAsking(client, asker);
    try {
      const { task } = await asTask(completion);
      expect(task.status).toBe('working');
      const result = server.experimental.tasks.getTaskResult(task.taskId, CreateMessageResultSchema);
      asker.answer({ error: { code: -1, message: 'User rejected sampling request: not now' } });
      await expect(result).rejects.toMatchObject({ code: -1, message: expect.stringContaining('User rejected sampling request: not now') });
      expect(await server.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'failed', statusMessage: 'User rejected sampling request: not now' });
    } finally {
      stop();
    }
  });

  test('a completion answered: tasks/result is the CreateMessageResult', async () => {
    await connect();
    const asker = heldAsker();
    const stop = beginAsking(client, asker);
    try {
      const { task } = await asTask(completion);
      asker.answer({ result: { role: 'assistant', content: { type: 'text', text: 'Hi.' }, model: 'claude', stopReason: 'endTurn' } });
      await expect(server.experimental.tasks.getTaskResult(task.taskId, CreateMessageResultSchema)).resolves.toMatchObject({ content: { type: 'text', text: 'Hi.' } });
    } finally {
      stop();
    }
  });

  test('tasks/cancel: the task is cancelled at once, its question withdrawn, a later answer is ignored, and a second cancel is refused', async () => {
    await connect();
    const asker = heldAsker();
    const stop = beginAsking(client, asker);
    try {
      const { task } = await asTask(form);
      const result = server.experimental.tasks.getTaskResult(task.taskId, ElicitResultSchema);
      expect(asker.withdrawals[0]?.aborted).toBe(false);
      expect(await server.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
      // The question is withdrawn from the conversation.
      expect(asker.withdrawals[0]?.aborted).toBe(true);
      await expect(result).rejects.toMatchObject({ code: -32602 });
      asker.answer({ result: { action: 'accept', content: { name: 'late' } } });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await server.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'cancelled' });
      await expect(server.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('terminal status: cancelled') });
    } finally {
      stop();
    }
  });

  test('an unknown task id: -32602, task not found, for get, result and cancel; a cursor never given out is refused', async () => {
    await connect();
    for (const ask of [
      () => server.experimental.tasks.getTask('nope'),
      () => server.experimental.tasks.getTaskResult('nope', ElicitResultSchema),
      () => server.experimental.tasks.cancelTask('nope'),
    ]) {
      const err = await ask().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: -32602, message: expect.stringContaining('Failed to retrieve task: Task not found') });
    }
    await expect(server.experimental.tasks.listTasks('c1')).rejects.toMatchObject({ code: -32602 });
    expect((await server.experimental.tasks.listTasks()).tasks).toEqual([]);
  });

  test('no call in flight: the host answers alone, as for a plain request, and the task is created ended', async () => {
    await connect();
    const formTask = await asTask(form);
    expect(formTask.task.status).toBe('completed');
    await expect(server.experimental.tasks.getTaskResult(formTask.task.taskId, ElicitResultSchema)).resolves.toMatchObject({ action: 'cancel' });
    const samplingTask = await asTask(completion);
    expect(samplingTask.task.status).toBe('failed');
    await expect(server.experimental.tasks.getTaskResult(samplingTask.task.taskId, CreateMessageResultSchema)).rejects.toMatchObject({ code: -1 });
  });

  test('sampling denied: not declared as a task, and such a request is refused as before', async () => {
    await connect('deny');
    expect(server.getClientCapabilities()?.tasks?.requests).toEqual({ elicitation: { create: {} } });
    await expect(asTask(completion)).rejects.toBeInstanceOf(Error);
    await expect(asTask(completion)).rejects.toMatchObject({ code: -32601 });
  });

  test('a plain request still goes to the SDK’s handlers', async () => {
    await connect();
    const asker = heldAsker();
    const stop = beginAsking(client, asker);
    try {
      const plain = server.request(form, ElicitResultSchema);
      await new Promise((resolve) => setTimeout(resolve, 20));
      asker.answer({ result: { action: 'decline' } });
      await expect(plain).resolves.toEqual({ action: 'decline' });
    } finally {
      stop();
    }
  });

  test('an invalid request sent as a task is refused with -32602', async () => {
    await connect();
    await expect(server.request({ method: 'elicitation/create', params: { message: 3, task: {} } }, CreateTaskResultSchema)).rejects.toMatchObject({ code: -32602 });
  });
});

describe('server-everything’s async tools through the host', () => {
  let connections: McpConnections;
  beforeAll(() => {
    connections = new McpConnections([everythingServer('everything', { sampling: 'auto' })], () => undefined);
  });
  afterAll(async () => {
    await connections?.closeAll();
  });

  test('are offered, and run as tasks the call’s asker answers', async () => {
    const listed = await connections.use('everything', (client) => client.listTools());
    expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['trigger-elicitation-request-async', 'trigger-sampling-request-async']));

    const asked: string[] = [];
    const asker = (): CallAsker => ({
      roots: [],
      ask: async (request) => {
        asked.push(request.method);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return request.method === 'elicitation/create'
          ? { result: { action: 'accept', content: { name: 'Grace', favoriteColor: 'Blue', agreeToTerms: true } } }
          : { result: { role: 'assistant', content: { type: 'text', text: 'Hello from the host.' }, model: 'claude', stopReason: 'endTurn' } };
      },
    });
    const call = (input: ToolCallInput): Promise<ToolCallOutput> => quietActivityEnvironment().run(createCallTool({ connections, asker }), input);
    const elicited = await call({ server: 'everything', tool: 'trigger-elicitation-request-async', arguments: {}, toolUseId: 'toolu_async_form' });
    expect(JSON.stringify(elicited.content)).toContain('[COMPLETED]');
    expect(JSON.stringify(elicited.content)).toContain('Grace');
    expect(JSON.stringify(elicited.content)).toContain('input_required');
    const sampled = await call({ server: 'everything', tool: 'trigger-sampling-request-async', arguments: { prompt: 'Say hi' }, toolUseId: 'toolu_async_sample' });
    expect(JSON.stringify(sampled.content)).toContain('[COMPLETED]');
    expect(JSON.stringify(sampled.content)).toContain('Hello from the host.');
    expect(asked).toEqual(['elicitation/create', 'sampling/createMessage']);
  }, 60_000);
});
