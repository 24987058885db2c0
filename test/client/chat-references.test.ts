/**
 * `chat`'s resources and prompts (src/client/chat-references.ts): `@server:uri` mentions, `/prompt`,
 * and Tab completion against a real server (the SDK v2 library fixture over stdio).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChatServers, parsePromptLine, splitMentions } from '../../src/client/chat-references';
import { DOT_PNG } from '../fixtures/library-server';
import { REPO_ROOT } from '../support/repo';

describe('chat mentions and prompts', () => {
  test('@server:uri mentions are taken out of the text; other @ words stay', () => {
    expect(splitMentions('compare @lib:library://a.md and @lib:file:///tmp/b.txt please')).toEqual({ text: 'compare and please', attach: ['lib:library://a.md', 'lib:file:///tmp/b.txt'] });
    expect(splitMentions('mail me@example.com about @team')).toEqual({ text: 'mail me@example.com about @team', attach: [] });
  });
  test('/prompt SERVER/NAME K=V…', () => {
    expect(parsePromptLine('/prompt library/review topic=docs')).toEqual({ prompt: 'library/review', args: ['topic=docs'] });
    expect(parsePromptLine('hello')).toBeUndefined();
    expect(() => parsePromptLine('/prompt')).toThrow(/usage: \/prompt/);
  });

  describe('against a real server', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-chat-refs-'));
    const configPath = path.join(dir, 'mcp.json');
    fs.writeFileSync(configPath, JSON.stringify({ mcpServers: { library: { command: process.execPath, args: ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/library-server.ts')], cwd: REPO_ROOT } } }));
    const servers = new ChatServers(configPath);
    afterAll(async () => {
      await servers.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const complete = (line: string): Promise<[string[], string]> =>
      new Promise((resolve, reject) => (servers.completer() as unknown as (l: string, cb: (e: Error | null, r: [string[], string]) => void) => void)(line, (err, result) => (err ? reject(err) : resolve(result))));

    test('Tab completes the server, its URIs, and a template variable from completion/complete', async () => {
      expect(await complete('look at @li')).toEqual([['@library:'], '@li']);
      expect((await complete('look at @library:library://i'))[0]).toEqual(['@library:library://images/dot.png']);
      expect((await complete('@library:library://notes/we'))[0]).toEqual(expect.arrayContaining(['@library:library://notes/welcome.md']));
      expect(await complete('no mention')).toEqual([[], 'no mention']);
    }, 60_000);

    test('a line with a mention becomes text plus the resource; /prompt becomes the prompt', async () => {
      const attached = await servers.turnOf('what is @library:library://images/dot.png ?');
      expect(attached.text).toBe('what is ?');
      expect(attached.content?.attachments?.[0]?.blocks).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: DOT_PNG } }]);
      const prompted = await servers.turnOf('/prompt library/review topic=docs');
      expect(prompted.text).toBe('');
      expect(prompted.content?.prompt?.messages[0]).toEqual({ role: 'user', content: 'Review docs.' });
      await expect(servers.turnOf('/prompt library/review')).rejects.toThrow(/needs --arg topic=/);
    }, 60_000);
  });
});
