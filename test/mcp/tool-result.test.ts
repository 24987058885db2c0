import type { CallToolResult } from '@modelcontextprotocol/client';

import { toToolResultContent } from '../../src/mcp/tool-result';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('toToolResultContent', () => {
  test('one text block becomes a plain string (the seed case)', () => {
    const result: CallToolResult = { content: [{ type: 'text', text: '北京今天晴，25°C' }] };
    expect(toToolResultContent(result)).toEqual({ content: '北京今天晴，25°C', isError: false, truncatedChars: 0 });
  });

  test('several text blocks become an array', () => {
    expect(
      toToolResultContent({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }).content,
    ).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
  });

  test('isError is carried over', () => {
    expect(toToolResultContent({ content: [{ type: 'text', text: 'boom' }], isError: true })).toEqual({
      content: 'boom',
      isError: true,
      truncatedChars: 0,
    });
    expect(toToolResultContent({ content: [], isError: false }).isError).toBe(false);
  });

  test('empty content → "(no content)", also with isError', () => {
    expect(toToolResultContent({ content: [] }).content).toBe('(no content)');
    expect(toToolResultContent({ content: [], isError: true })).toEqual({
      content: '(no content)',
      isError: true,
      truncatedChars: 0,
    });
    expect(toToolResultContent({}).content).toBe('(no content)');
  });

  test('empty and whitespace-only text blocks are dropped (Claude rejects them)', () => {
    expect(toToolResultContent({ content: [{ type: 'text', text: '' }] }).content).toBe('(no content)');
    expect(
      toToolResultContent({
        content: [
          { type: 'text', text: ' \n' },
          { type: 'text', text: 'real' },
        ],
      }).content,
    ).toBe('real');
  });

  describe('images', () => {
    test.each(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])('%s → image block', (mimeType) => {
      const { content } = toToolResultContent({ content: [{ type: 'image', data: PNG, mimeType }] });
      expect(content).toEqual([{ type: 'image', source: { type: 'base64', media_type: mimeType, data: PNG } }]);
    });

    test('image/jpg and parameters/case are normalised', () => {
      expect(toToolResultContent({ content: [{ type: 'image', data: PNG, mimeType: 'image/jpg' }] }).content).toEqual([
        { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: PNG } },
      ]);
      expect(toToolResultContent({ content: [{ type: 'image', data: PNG, mimeType: 'Image/PNG; q=1' }] }).content).toEqual([
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ]);
    });

    test('text plus image → array in order', () => {
      const { content } = toToolResultContent({
        content: [
          { type: 'text', text: 'chart:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
        ],
      });
      expect(content).toEqual([
        { type: 'text', text: 'chart:' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ]);
    });

    test('unsupported image type → text note', () => {
      const { content } = toToolResultContent({ content: [{ type: 'image', data: b64('<svg/>'), mimeType: 'image/svg+xml' }] });
      expect(content).toBe(
        '[image of type image/svg+xml returned by the tool, omitted: Claude accepts only image/jpeg, image/png, image/gif, image/webp]',
      );
    });
  });

  test('audio → text note with size', () => {
    const data = Buffer.alloc(1000).toString('base64');
    expect(toToolResultContent({ content: [{ type: 'audio', data, mimeType: 'audio/wav' }] }).content).toBe(
      '[audio audio/wav, 1000 bytes, omitted: Claude does not accept audio]',
    );
  });

  describe('embedded resources', () => {
    test('text resource → header line + text', () => {
      const { content } = toToolResultContent({
        content: [{ type: 'resource', resource: { uri: 'file:///a.md', mimeType: 'text/markdown', text: '# Hi' } }],
      });
      expect(content).toBe('[resource file:///a.md (text/markdown)]\n# Hi');
    });

    test('text resource without mimeType', () => {
      expect(
        toToolResultContent({ content: [{ type: 'resource', resource: { uri: 'mem://x', text: 'body' } }] }).content,
      ).toBe('[resource mem://x]\nbody');
    });

    test('PDF blob → document block', () => {
      const data = b64('%PDF-1.4 fake');
      expect(
        toToolResultContent({
          content: [{ type: 'resource', resource: { uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: data } }],
        }).content,
      ).toEqual([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } }]);
    });

    test('text/* blob is decoded (UTF-8 by default, declared charset honoured)', () => {
      expect(
        toToolResultContent({
          content: [{ type: 'resource', resource: { uri: 'file:///a.csv', mimeType: 'text/csv', blob: b64('a,b\n1,2 ✓') } }],
        }).content,
      ).toBe('[resource file:///a.csv (text/csv)]\na,b\n1,2 ✓');
      const latin1 = Buffer.from('caf\xe9', 'latin1').toString('base64');
      expect(
        toToolResultContent({
          content: [{ type: 'resource', resource: { uri: 'u:1', mimeType: 'text/plain; charset=ISO-8859-1', blob: latin1 } }],
        }).content,
      ).toBe('[resource u:1 (text/plain; charset=ISO-8859-1)]\ncafé');
    });

    test('JSON blob is decoded too', () => {
      expect(
        toToolResultContent({
          content: [{ type: 'resource', resource: { uri: 'u:j', mimeType: 'application/json', blob: b64('{"a":1}') } }],
        }).content,
      ).toBe('[resource u:j (application/json)]\n{"a":1}');
    });

    test('image blob → image block', () => {
      expect(
        toToolResultContent({ content: [{ type: 'resource', resource: { uri: 'u:i', mimeType: 'image/png', blob: PNG } }] })
          .content,
      ).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]);
    });

    test('other blob → note with uri, mime and size', () => {
      const data = Buffer.alloc(10).toString('base64');
      expect(
        toToolResultContent({
          content: [{ type: 'resource', resource: { uri: 'file:///x.zip', mimeType: 'application/zip', blob: data } }],
        }).content,
      ).toBe('[resource file:///x.zip (application/zip), 10 bytes, omitted: Claude does not accept this type]');
      expect(
        toToolResultContent({ content: [{ type: 'resource', resource: { uri: 'u:n', blob: data } }] }).content,
      ).toBe('[resource u:n (unknown type), 10 bytes, omitted: Claude does not accept this type]');
    });
  });

  test('resource_link → one descriptive line', () => {
    expect(
      toToolResultContent({
        content: [
          {
            type: 'resource_link',
            uri: 'file:///report.csv',
            name: 'report.csv',
            mimeType: 'text/csv',
            description: 'Quarterly numbers',
          },
        ],
      }).content,
    ).toBe('[resource link] report.csv: file:///report.csv (text/csv) — Quarterly numbers');
    expect(toToolResultContent({ content: [{ type: 'resource_link', uri: 'u:x', name: 'x' }] }).content).toBe(
      '[resource link] x: u:x',
    );
  });

  describe('structuredContent', () => {
    test('sent as JSON when there is no text content', () => {
      expect(toToolResultContent({ content: [], structuredContent: { temp: 25, city: '北京' } }).content).toBe(
        '{"temp":25,"city":"北京"}',
      );
      expect(toToolResultContent({ structuredContent: { ok: true } }).content).toBe('{"ok":true}');
    });

    test('not duplicated when text content is present', () => {
      expect(
        toToolResultContent({ content: [{ type: 'text', text: '{"temp":25}' }], structuredContent: { temp: 25 } }).content,
      ).toBe('{"temp":25}');
    });

    test('added after an image when there is no text', () => {
      expect(
        toToolResultContent({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }], structuredContent: { n: 1 } })
          .content,
      ).toEqual([
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'text', text: '{"n":1}' },
      ]);
    });
  });

  test('legacy toolResult shape is sent as JSON', () => {
    expect(toToolResultContent({ toolResult: { a: 1 } }).content).toBe('{"a":1}');
    expect(toToolResultContent({ toolResult: 'plain' }).content).toBe('plain');
  });

  describe('unknown and malformed blocks are never dropped', () => {
    test('unknown type → its JSON', () => {
      const block = { type: 'video', url: 'https://v', mimeType: 'video/mp4' };
      const { content } = toToolResultContent({ content: [block] as unknown[] });
      expect(content).toBe(`[MCP content block of type "video" that the host cannot convert] ${JSON.stringify(block)}`);
    });

    test.each<[string, unknown]>([
      ['text without text', { type: 'text' }],
      ['image without data', { type: 'image', mimeType: 'image/png' }],
      ['resource without uri', { type: 'resource', resource: { text: 'x' } }],
      ['resource with neither text nor blob', { type: 'resource', resource: { uri: 'u:1' } }],
      ['not an object', 42],
      ['null', null],
    ])('%s → JSON text', (_label, block) => {
      const { content } = toToolResultContent({ content: [block] });
      expect(typeof content).toBe('string');
      expect(content).toContain(JSON.stringify(block));
    });

    test('content that is not an array', () => {
      const { content } = toToolResultContent({ content: 'oops' } as unknown as CallToolResult);
      expect(content).toBe('[malformed MCP tool result content] "oops"');
    });
  });

  describe('maxChars', () => {
    test('default cap is 100,000 characters', () => {
      const text = 'a'.repeat(112_345);
      const result = toToolResultContent({ content: [{ type: 'text', text }] });
      expect(result.truncatedChars).toBe(12_345);
      expect(result.content).toBe(
        `${'a'.repeat(100_000)}\n[... cut 12345 of 112345 characters: the tool result exceeded the host's cap of 100000 characters]`,
      );
    });

    test('under the cap nothing changes', () => {
      const text = 'b'.repeat(100_000);
      expect(toToolResultContent({ content: [{ type: 'text', text }] })).toEqual({ content: text, isError: false, truncatedChars: 0 });
    });

    test('cuts across blocks; later text blocks are dropped and counted', () => {
      const result = toToolResultContent(
        {
          content: [
            { type: 'text', text: '1234567890' },
            { type: 'text', text: 'abcdefghij' },
            { type: 'text', text: 'KLMNOPQRST' },
          ],
        },
        { maxChars: 15 },
      );
      expect(result.truncatedChars).toBe(15);
      expect(result.content).toEqual([
        { type: 'text', text: '1234567890' },
        {
          type: 'text',
          text: "abcde\n[... cut 15 of 30 characters: the tool result exceeded the host's cap of 15 characters]",
        },
      ]);
    });

    test('a block that starts exactly at the cap becomes just the marker', () => {
      const result = toToolResultContent(
        {
          content: [
            { type: 'text', text: '12345' },
            { type: 'text', text: 'abc' },
          ],
        },
        { maxChars: 5 },
      );
      expect(result.content).toEqual([
        { type: 'text', text: '12345' },
        { type: 'text', text: "[... cut 3 of 8 characters: the tool result exceeded the host's cap of 5 characters]" },
      ]);
    });

    test('does not split a surrogate pair', () => {
      const result = toToolResultContent({ content: [{ type: 'text', text: 'ab😀cd' }] }, { maxChars: 3 });
      expect(result.content).toMatch(/^ab\n\[\.\.\. cut 4 of 6 characters/);
      expect(result.truncatedChars).toBe(4);
    });

    test('an image over the remaining budget is replaced by a note and counted', () => {
      const data = 'A'.repeat(400);
      const result = toToolResultContent(
        {
          content: [
            { type: 'text', text: 'x'.repeat(50) },
            { type: 'image', data, mimeType: 'image/png' },
            { type: 'text', text: 'after' },
          ],
        },
        { maxChars: 100 },
      );
      expect(result.truncatedChars).toBe(400);
      expect(result.content).toEqual([
        { type: 'text', text: 'x'.repeat(50) },
        { type: 'text', text: "[image image/png, 300 bytes, omitted: it would exceed the host's cap of 100 characters per tool result]" },
        { type: 'text', text: 'after' },
      ]);
    });

    test('an image that fits is counted by its base64 length', () => {
      const data = 'A'.repeat(80);
      const result = toToolResultContent(
        {
          content: [
            { type: 'image', data, mimeType: 'image/png' },
            { type: 'text', text: 'y'.repeat(30) },
          ],
        },
        { maxChars: 100 },
      );
      expect(result.truncatedChars).toBe(10);
      expect(result.content).toEqual([
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
        {
          type: 'text',
          text: `${'y'.repeat(20)}\n[... cut 10 of 110 characters: the tool result exceeded the host's cap of 100 characters]`,
        },
      ]);
    });

    test('a PDF over the cap is replaced by a note', () => {
      const data = 'A'.repeat(200);
      const result = toToolResultContent(
        { content: [{ type: 'resource', resource: { uri: 'file:///big.pdf', mimeType: 'application/pdf', blob: data } }] },
        { maxChars: 100 },
      );
      expect(result).toEqual({
        content:
          "[PDF resource file:///big.pdf, 150 bytes, omitted: it would exceed the host's cap of 100 characters per tool result]",
        isError: false,
        truncatedChars: 200,
      });
    });

    test('maxChars: 0 keeps only notes and the marker', () => {
      const result = toToolResultContent({ content: [{ type: 'text', text: 'abc' }] }, { maxChars: 0 });
      expect(result).toEqual({
        content: "[... cut 3 of 3 characters: the tool result exceeded the host's cap of 0 characters]",
        isError: false,
        truncatedChars: 3,
      });
    });

    test('invalid maxChars throws', () => {
      expect(() => toToolResultContent({ content: [] }, { maxChars: -1 })).toThrow(RangeError);
      expect(() => toToolResultContent({ content: [] }, { maxChars: Number.NaN })).toThrow(RangeError);
    });
  });
});
