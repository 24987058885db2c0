/**
 * Tool search end to end (issue 29), with the compiled worker, real Temporal, a real stdio MCP
 * server of 60 tools (test/fixtures/many-tools-server.ts) and the scripted fake Messages API: with
 * `toolSearch: 'on'` the request carries the BM25 search tool and every tool deferred; the fake's
 * search finds a deferred tool, Claude calls it with a plain tool_use, it runs on the real server,
 * the turn completes, and the next request sends the search blocks back unchanged. In `auto`
 * under the threshold, the request is what it always was.
 */
import { Client, Connection } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ContentBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverter } from '../../src/temporal/data-converter';
import { messagesQuery } from '../../src/workflows/definitions';
import type { MessageParam } from '../../src/conversation/types';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, type WorkerProcess } from '../support/worker-process';

const TARGET = 'inventory_archive_46';
const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });
/** Without the moving breakpoint the host puts on the last block. */
const bare = (blocks: ContentBlockParam[]): unknown[] => blocks.map(({ cache_control: _mark, ...rest }: ContentBlockParam & { cache_control?: unknown }) => rest);

describe('tool search', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-tool-search-'));
  const mcpConfigPath = path.join(dir, 'mcp.json');
  const taskQueue = `tool-search-${randomUUID()}`;
  const body = (i: number): { tools: Array<Tool & { type?: string }>; messages: MessageParam[] } => fake.requests[i]?.body as never;

  beforeAll(async () => {
    fs.writeFileSync(
      mcpConfigPath,
      JSON.stringify({
        mcpServers: {
          many: { command: process.execPath, args: ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/many-tools-server.ts')], cwd: REPO_ROOT, alwaysLoaded: ['billing_create_0'] },
        },
      }),
    );
    fake = await startFakeMessagesApi({ mode: 'scripted' });
    connection = await Connection.connect({ address: temporalAddress() });
    client = new Client({ connection, dataConverter });
    conversations = new ConversationClient(client, { taskQueue, mcpConfigPath });
    worker = await spawnWorkerProcess({ address: temporalAddress(), taskQueue, mcpConfigPath, claudeBaseUrl: fake.url });
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('on: a deferred tool is found by the search, called with tool_use on the real server, and the search goes back unchanged', async () => {
    const first = fake.requests.length;
    fake.enqueue(
      {
        kind: 'message',
        content: [
          { type: 'text', text: 'Let me find the right tool.' },
          { type: 'server_tool_use', name: 'tool_search_tool_bm25', input: { query: 'archive inventory record' } },
          { type: 'tool_use', id: 'toolu_archive', name: TARGET, input: { record: 'R-17' } },
        ],
        stop_reason: 'tool_use',
      },
      endTurn('Archived R-17.'),
    );
    const { id, result } = await conversations.start('archive inventory record R-17', { wait: true, toolSearch: 'on' });
    expect(result?.status).toBe('completed');
    expect(result?.toolCalls).toBe(1);

    // The first request: the search tool, never deferred; the catalogue deferred but for alwaysLoaded.
    const request = body(first);
    expect(request.tools[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    const tools = request.tools.slice(1);
    expect(tools).toHaveLength(60);
    expect(tools.filter((t) => t.defer_loading !== true).map((t) => t.name)).toEqual(['billing_create_0']);
    // The tools breakpoint is on a tool sent in full, not a deferred one.
    expect(tools.find((t) => t.cache_control !== undefined)?.name).toBe('billing_create_0');

    // The next request's assistant message holds the search and its result as the fake sent them.
    const next = body(first + 1);
    const assistant = next.messages[next.messages.length - 2];
    expect(assistant?.role).toBe('assistant');
    const blocks = assistant?.content as ContentBlockParam[];
    expect(blocks.map((b) => b.type)).toEqual(['text', 'server_tool_use', 'tool_search_tool_result', 'tool_use']);
    const [, use, found] = blocks;
    expect(use).toMatchObject({ type: 'server_tool_use', name: 'tool_search_tool_bm25', input: { query: 'archive inventory record' }, caller: { type: 'direct' } });
    expect(found?.type === 'tool_search_tool_result' && found.content.type === 'tool_search_tool_search_result' ? found.content.tool_references.map((r) => r.tool_name) : []).toContain(TARGET);
    // The tool ran on the real MCP server.
    const results = next.messages[next.messages.length - 1]?.content as ContentBlockParam[];
    expect(results[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_archive', content: `${TARGET} done for R-17` });
    // And the history keeps them exactly (the breakpoint is the request's, not the history's).
    const history = await client.workflow.getHandle(id).query(messagesQuery);
    expect(bare(history[1]?.content as ContentBlockParam[])).toEqual(bare(blocks));
  }, 180_000);

  test('auto under the threshold: no search tool and nothing deferred', async () => {
    const first = fake.requests.length;
    fake.enqueue(endTurn('Hello.'));
    const { result } = await conversations.start('hello', { wait: true });
    expect(result?.status).toBe('completed');
    const request = body(first);
    expect(request.tools).toHaveLength(60);
    expect(request.tools.some((t) => t.type !== undefined || 'defer_loading' in t)).toBe(false);
  }, 120_000);

  test('auto over the threshold: the catalogue past 10% of the context window goes deferred beside the search tool', async () => {
    const first = fake.requests.length;
    fake.enqueue(endTurn('Hello.'));
    // 60 tools of some 100 tokens each: past 10% of a 20,000-token window, far under 10% of 200,000.
    const { id, result } = await conversations.start('hello', { wait: true, contextWindow: 20_000 });
    expect(result?.status).toBe('completed');
    const request = body(first);
    expect(request.tools[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(request.tools.slice(1).filter((t) => t.defer_loading !== true).map((t) => t.name)).toEqual(['billing_create_0']);
    expect((await conversations.status(id)).toolSearch).toBe('auto');
  }, 120_000);
});
