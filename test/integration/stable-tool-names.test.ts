/**
 * Issue 13 item 7: the Claude-visible tool names stay the same for the whole conversation. Two
 * servers listing `add` make it `a__add` and `b__add`; when `b` drops out, the catalogue alone would
 * name a's tool `add` again, and the `a__add` calls earlier in the history would match nothing. The
 * conversation keeps the names it gave out. The worker runs the real workflow with stand-in
 * activities, so the catalogue can change between turns exactly as a test needs.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import type { ClaudeCallInput, ClaudeReply, ListToolsResult, ToolCallInput, ToolCallOutput } from '../../src/activities/types';
import { digestOf } from '../../src/conversation/digest';
import type { Tool, ToolCatalog, ToolRoute, ToolRouteEntry } from '../../src/conversation/types';
import { conversationOptions } from '../../src/client/conversation-options';
import { conversationWorkflow } from '../../src/workflows';
import { sendMessageUpdate, toolsQuery } from '../../src/workflows/definitions';
import { Client, Connection } from '@temporalio/client';
import { dataConverter } from '../../src/temporal/data-converter';
import { temporalAddress } from '../support/test-worker';
import { workerTracingOptions } from '../../src/telemetry/worker-tracing';

const route = (server: string, name: string): ToolRoute => ({ server, name, idempotent: false, timeoutMs: 10_000 });
const tool = (name: string): Tool => ({ name, description: name, input_schema: { type: 'object' } });

/** A catalogue as the MCP layer builds it: tools and routes under the given Claude names. */
function catalog(entries: Array<[claudeName: string, server: string, mcpName: string]>): ToolCatalog {
  const tools = entries.map(([name]) => tool(name));
  const routes = entries.map(([name, server, mcpName]): ToolRouteEntry => [name, route(server, mcpName)]);
  return { digest: digestOf([tools, routes]), tools, routes };
}

const BOTH = catalog([['a__add', 'a', 'add'], ['b__add', 'b', 'add']]);
const ONLY_A = catalog([['add', 'a', 'add']]);

const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
const reply = (content: ClaudeReply['content'], stopReason: ClaudeReply['stopReason']): ClaudeReply =>
  ({ id: `msg_${randomUUID()}`, model: 'claude-sonnet-4-6', content, stopReason, stopSequence: null, usage });

describe('stable tool names', () => {
  let connection: NativeConnection;
  let clientConnection: Connection;
  let client: Client;
  beforeAll(async () => {
    connection = await NativeConnection.connect({ address: temporalAddress() });
    clientConnection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection: clientConnection, dataConverter });
  });
  afterAll(async () => {
    await clientConnection?.close();
    await connection?.close();
  });

  test('a name given out stays the tool\'s name after a colliding server drops out', async () => {
    let listed: ToolCatalog = BOTH;
    const replies: ClaudeReply[] = [
      reply([{ type: 'tool_use', id: 'toolu_1', name: 'a__add', input: { a: 1, b: 2 } }], 'tool_use'),
      reply([{ type: 'text', text: '3' }], 'end_turn'),
      reply([{ type: 'tool_use', id: 'toolu_2', name: 'a__add', input: { a: 2, b: 2 } }], 'tool_use'),
      reply([{ type: 'text', text: '4' }], 'end_turn'),
    ];
    const toolCalls: ToolCallInput[] = [];
    const catalogsSeen: string[] = [];
    const taskQueue = `stable-names-${randomUUID()}`;
    const worker = await Worker.create({
      connection,
      taskQueue,
      dataConverter,
      // The workflow bundle's span sink (src/telemetry/worker-tracing.ts): dropped, tracing is off here.
      sinks: workerTracingOptions().sinks,
      ...(process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE
        ? { workflowBundle: { codePath: process.env.TEMPORAL_TEST_WORKFLOW_BUNDLE } }
        : { workflowsPath: require.resolve('../../src/workflows') }),
      activities: {
        listTools: (input: { knownDigest?: string }): Promise<ListToolsResult> =>
          Promise.resolve(input.knownDigest === listed.digest ? { changed: false } : { changed: true, catalog: listed }),
        callClaude: (input: ClaudeCallInput): Promise<ClaudeReply> => {
          catalogsSeen.push(input.catalogDigest);
          const next = replies.shift();
          return next ? Promise.resolve(next) : Promise.reject(new Error('no scripted reply left'));
        },
        callTool: (input: ToolCallInput): Promise<ToolCallOutput> => {
          toolCalls.push(input);
          const args = input.arguments as { a: number; b: number };
          return Promise.resolve({ content: String(args.a + args.b), isError: false, truncatedChars: 0 });
        },
        summarizeContext: () => Promise.reject(new Error('not used')),
      },
    });
    await worker.runUntil(async () => {
      const handle = await client.workflow.start(conversationWorkflow, {
        taskQueue,
        workflowId: `stable-names-${randomUUID()}`,
        args: [{ options: conversationOptions({ promptCache: { enabled: false } }) }],
      });
      expect(await handle.executeUpdate(sendMessageUpdate, { args: ['1+2'] })).toMatchObject({ status: 'completed', text: '3' });
      expect((await handle.query(toolsQuery)).tools.map((t) => t.name)).toEqual(['a__add', 'b__add']);

      listed = ONLY_A; // server b drops out
      expect(await handle.executeUpdate(sendMessageUpdate, { args: ['2+2'] })).toMatchObject({ status: 'completed', text: '4', toolCalls: 1 });
      // Claude keeps seeing the name the conversation gave the tool, and calls to it reach server a.
      expect((await handle.query(toolsQuery)).tools.map((t) => t.name)).toEqual(['a__add']);
      expect(toolCalls.map((call) => [call.server, call.tool, call.toolUseId])).toEqual([['a', 'add', 'toolu_1'], ['a', 'add', 'toolu_2']]);
      expect((await handle.query(toolsQuery)).digest).toBe(catalogsSeen.at(-1));
    });
  });
});
