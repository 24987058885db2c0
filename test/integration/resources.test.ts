/**
 * Resources and prompts through the host (issue 28), with the compiled worker, real Temporal, real
 * MCP servers (`@modelcontextprotocol/server-everything` and the SDK v2 library fixture, both over
 * stdio) and the scripted fake Messages API playing Claude: Claude follows a real server's
 * `resource_link` with the host's read tool; `--attach` puts a text and an image resource into the
 * user message on the wire; `--prompt` puts a prompt's messages into the history; a resource added
 * mid-conversation is in the next listing; and bad references are refused in one line each, with
 * nothing recorded.
 */
import { Client, Connection } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFakeMessagesApi, type FakeMessagesApi, type ScriptStep } from '../../src/testing';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverter } from '../../src/temporal/data-converter';
import { messagesQuery, toolsQuery } from '../../src/workflows/definitions';
import type { MessageParam } from '../../src/conversation/types';
import { LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL } from '../../src/mcp/resources/host-resource-tools';
import { everythingServer } from '../fixtures/reference-servers';
import { DOT_PNG, WELCOME_TEXT } from '../fixtures/library-server';
import { runCliProcess, type CliRun } from '../support/cli-process';
import { REPO_ROOT } from '../support/repo';
import { temporalAddress } from '../support/test-worker';
import { spawnWorkerProcess, type WorkerProcess } from '../support/worker-process';

const toolUse = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_use' as const, id, name, input });
const toolUses = (...uses: Array<ReturnType<typeof toolUse>>): ScriptStep => ({ kind: 'message', content: uses, stop_reason: 'tool_use' });
const endTurn = (text: string): ScriptStep => ({ kind: 'message', content: [{ type: 'text', text }], stop_reason: 'end_turn' });

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? '').join('\n') : '';
}

describe('resources and prompts', () => {
  let fake: FakeMessagesApi;
  let connection: Connection;
  let client: Client;
  let conversations: ConversationClient;
  let worker: WorkerProcess;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-resources-'));
  const mcpConfigPath = path.join(dir, 'mcp.json');
  const taskQueue = `resources-${randomUUID()}`;
  const cli = (...args: string[]): Promise<CliRun> =>
    runCliProcess(args, { TEMPORAL_ADDRESS: temporalAddress(), MCP_HOST_TASK_QUEUE: taskQueue, MCP_CONFIG: mcpConfigPath });
  const historyOf = (id: string): Promise<MessageParam[]> => client.workflow.getHandle(id).query(messagesQuery);
  const toolResult = (toolUseId: string) => {
    for (const request of fake.requests) {
      const messages = (request.body as { messages: MessageParam[] }).messages;
      const last = messages[messages.length - 1];
      if (!last || typeof last.content === 'string') continue;
      const found = last.content.find((b) => b.type === 'tool_result' && b.tool_use_id === toolUseId);
      if (found?.type === 'tool_result') return found;
    }
    return undefined;
  };

  beforeAll(async () => {
    const { command, args } = everythingServer() as unknown as { command: string; args: string[] };
    fs.writeFileSync(
      mcpConfigPath,
      JSON.stringify({
        mcpServers: {
          everything: { command, args },
          library: { command: process.execPath, args: ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/library-server.ts')], cwd: REPO_ROOT },
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

  test('Claude follows a resource_link with the read tool, and sees a resource added mid-conversation in the next listing', async () => {
    fake.enqueue(
      toolUses(toolUse('toolu_links', 'get-resource-links', { count: 1 }), toolUse('toolu_list1', LIST_RESOURCES_TOOL, { server: 'library' })),
      toolUses(toolUse('toolu_read', READ_RESOURCE_TOOL, { server: 'everything', uri: 'demo://resource/dynamic/blob/1' }), toolUse('toolu_add', 'add_note', { name: 'minutes', text: 'Met at nine.' })),
      toolUses(toolUse('toolu_list2', LIST_RESOURCES_TOOL, { server: 'library' }), toolUse('toolu_bad', READ_RESOURCE_TOOL, { server: 'library', uri: 'library://nope' })),
      endTurn('Read it.'),
    );
    const { id, result } = await conversations.start('follow the link', { wait: true });
    expect(result?.status).toBe('completed');
    const tools = (await client.workflow.getHandle(id).query(toolsQuery)).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining([LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL, 'get-resource-links', 'add_note']));

    // The link says how to read it, and the read tool gets the resource's text from the real server.
    const links = textOf(toolResult('toolu_links')?.content);
    expect(links).toContain('demo://resource/dynamic/blob/1');
    expect(links).toContain(`read it with ${READ_RESOURCE_TOOL}, server "everything"`);
    const read = toolResult('toolu_read');
    expect(read?.is_error).toBeUndefined();
    expect(textOf(read?.content)).toContain('[resource demo://resource/dynamic/blob/1');
    expect(textOf(read?.content)).toMatch(/Resource 1/i);

    // The listing after add_note has the new note; the one before did not.
    expect(textOf(toolResult('toolu_list1')?.content)).not.toContain('library://notes/minutes');
    expect(textOf(toolResult('toolu_list2')?.content)).toContain('library://notes/minutes');
    expect(textOf(toolResult('toolu_list2')?.content)).toContain('library://notes/welcome.md');

    // A URI the server does not have: an is_error result naming it, and the turn goes on.
    const bad = toolResult('toolu_bad');
    expect(bad?.is_error).toBe(true);
    expect(textOf(bad?.content)).toContain('library://nope');
  }, 180_000);

  test('--attach puts a text and an image resource into the user message on the wire; --prompt puts its messages in the history', async () => {
    fake.enqueue(endTurn('Started.'), endTurn('Seen both.'), endTurn('Reviewed.'));
    const started = await cli('start', '--wait', 'hello');
    expect(started.code).toBe(0);
    const id = started.stdout.split('\n')[0] ?? '';

    const attached = await cli('send', id, 'What do these say?', '--attach', 'library:library://notes/welcome.md', '--attach', 'library:library://images/dot.png');
    expect(attached.stderr).toBe('');
    expect(attached.code).toBe(0);
    const wire = fake.requests[fake.requests.length - 1]?.body as { messages: MessageParam[] };
    const user = wire.messages[wire.messages.length - 1];
    expect(user?.role).toBe('user');
    // The moving cache breakpoint sits on the last block; the blocks are otherwise as read.
    const blocks = (user?.content as unknown as Array<Record<string, unknown>>).map(({ cache_control: _breakpoint, ...block }) => block);
    expect(blocks).toEqual([
      { type: 'text', text: 'What do these say?' },
      { type: 'text', text: `[resource library://notes/welcome.md (text/markdown)]\n${WELCOME_TEXT}` },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DOT_PNG } },
    ]);

    const prompted = await cli('send', id, '--prompt', 'library/review', '--arg', 'topic=durability', '--arg', 'tone=plain');
    expect(prompted.code).toBe(0);
    const history = await historyOf(id);
    expect(history.slice(-4)).toEqual([
      { role: 'user', content: 'Review durability in a plain tone.' },
      { role: 'assistant', content: 'What about durability matters most to you?' },
      { role: 'user', content: 'Whether it survives a crash.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Reviewed.' }] },
    ]);

    // Bad references: one line each, exit code 1, nothing recorded.
    const before = (await historyOf(id)).length;
    const requestsBefore = fake.requests.length;
    const refusals: Array<[string[], RegExp]> = [
      [['--attach', 'nowhere:x://y'], /no MCP server named "nowhere" in mcp.json/],
      [['--attach', 'library:library://nope'], /MCP server "library" refused to read library:\/\/nope/],
      [['--attach', 'library:library://big.txt'], /larger than an attachment may be/],
      [['--prompt', 'library/nope'], /MCP server "library" has no prompt "nope"/],
      [['--prompt', 'library/review'], /prompt "library\/review" needs --arg topic=/],
      [['--attach', 'not-a-reference'], /is not SERVER:URI/],
    ];
    for (const [flags, expected] of refusals) {
      const run = await cli('send', id, 'look', ...flags);
      expect({ flags, code: run.code }).toEqual({ flags, code: 1 });
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(expected);
    }
    expect((await historyOf(id)).length).toBe(before);
    expect(fake.requests.length).toBe(requestsBefore);
  }, 240_000);

  test('resources, read and prompts list what the servers offer', async () => {
    const listed = await cli('resources', '--json');
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{ server: string; resources: Array<{ uri: string }>; templates: Array<{ uriTemplate: string }> }>;
    expect(rows.map((r) => r.server).sort()).toEqual(['everything', 'library']);
    expect(rows.find((r) => r.server === 'library')?.templates.map((t) => t.uriTemplate)).toEqual(['library://notes/{name}']);
    const read = await cli('read', 'library', 'library://notes/welcome.md');
    expect(read.stdout.trim()).toBe(WELCOME_TEXT);
    const prompts = await cli('prompts');
    expect(prompts.stdout).toContain('library/review topic* tone');
    const unknown = await cli('resources', 'nowhere');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no MCP server named "nowhere"/);
  }, 120_000);
});
