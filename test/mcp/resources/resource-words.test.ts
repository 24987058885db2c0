import { parsePromptReference, parseResourceReference } from '../../../src/mcp/resources/resource-reference';
import { promptMessages } from '../../../src/mcp/resources/prompt-messages';
import { resourceBlocks } from '../../../src/mcp/resources/resource-blocks';
import { hostResourceTools, LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL } from '../../../src/mcp/resources/host-resource-tools';

describe('resource and prompt references', () => {
  test('SERVER:URI splits at the first colon', () => {
    expect(parseResourceReference('everything:demo://resource/static/document/a.md')).toEqual({ server: 'everything', uri: 'demo://resource/static/document/a.md' });
    expect(parseResourceReference('fs:file:///tmp/x.txt')).toEqual({ server: 'fs', uri: 'file:///tmp/x.txt' });
  });
  test.each(['nothing', ':demo://x', 'server:', 'server:no-scheme'])('%s is refused with the form it must take', (text) => {
    expect(() => parseResourceReference(text)).toThrow(/is not SERVER:URI/);
  });
  test('SERVER/NAME with KEY=VALUE arguments', () => {
    expect(parsePromptReference('library/review', ['topic=a=b', 'tone='])).toEqual({ server: 'library', name: 'review', arguments: { topic: 'a=b', tone: '' } });
    expect(() => parsePromptReference('review')).toThrow(/is not SERVER\/NAME/);
    expect(() => parsePromptReference('library/review', ['topic'])).toThrow(/"topic" is not KEY=VALUE/);
    expect(() => parsePromptReference('library/review', ['a=1', 'a=2'])).toThrow(/"a" is given twice/);
  });
});

describe('prompt messages in Claude form', () => {
  test('roles kept, text as a string, images only in user messages, resources with their header', () => {
    const messages = promptMessages([
      { role: 'user', content: { type: 'text', text: 'Look:' } },
      { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
      { role: 'assistant', content: { type: 'resource', resource: { uri: 'note://1', mimeType: 'text/plain', text: 'hi' } } },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'Look:' },
      { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] },
      { role: 'assistant', content: '[resource note://1 (text/plain)]\nhi' },
    ]);
  });
  test('a role Claude does not take is refused', () => {
    expect(() => promptMessages([{ role: 'system', content: { type: 'text', text: 'x' } }])).toThrow(/message 1 of the prompt has the role "system"/);
  });
});

describe('resource blocks', () => {
  test('text, image and PDF contents', () => {
    const { blocks, truncatedChars } = resourceBlocks([
      { uri: 'a://t', mimeType: 'text/markdown', text: '# A' },
      { uri: 'a://i', mimeType: 'image/png', blob: 'AAAA' },
      { uri: 'a://p', mimeType: 'application/pdf', blob: 'JVBE' },
    ]);
    expect(truncatedChars).toBe(0);
    expect(blocks).toEqual([
      { type: 'text', text: '[resource a://t (text/markdown)]\n# A' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
    ]);
  });
  test('over the cap: cut, and how much is said', () => {
    const { truncatedChars } = resourceBlocks([{ uri: 'a://big', text: 'x'.repeat(500) }], 100);
    expect(truncatedChars).toBeGreaterThan(0);
  });
});

describe('host resource tools', () => {
  test('offered only when a server has resources, never over a server tool of the same name', () => {
    expect(hostResourceTools([], new Set(), 1000)).toEqual([]);
    const both = hostResourceTools(['library'], new Set(), 1000);
    expect(both.map((t) => t.tool.name)).toEqual([LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL]);
    expect(both.map((t) => t.route.host)).toEqual(['list_resources', 'read_resource']);
    expect(both[0]?.tool.description).toContain('library');
    expect(hostResourceTools(['library'], new Set([READ_RESOURCE_TOOL]), 1000).map((t) => t.tool.name)).toEqual([LIST_RESOURCES_TOOL]);
  });
});
