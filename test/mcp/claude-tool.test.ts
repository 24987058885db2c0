import type { Tool as McpTool } from '@modelcontextprotocol/client';

import { toClaudeTool } from '../../src/mcp/claude-tool';

describe('toClaudeTool', () => {
  test('renames inputSchema to input_schema and drops the MCP wrapper fields', () => {
    const tool: McpTool = {
      name: 'get_weather',
      title: 'Weather',
      description: '获取城市天气',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      outputSchema: { type: 'object', properties: { temp: { type: 'number' } } },
      annotations: { readOnlyHint: true },
      _meta: { x: 1 },
    };
    expect(toClaudeTool(tool, 'get_weather', 'weather')).toEqual({
      name: 'get_weather',
      description: '获取城市天气',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
  });

  test('uses the assigned Claude name, not the MCP name', () => {
    const tool: McpTool = { name: 'a.b', inputSchema: { type: 'object', properties: {} } };
    expect(toClaudeTool(tool, 'a_b').name).toBe('a_b');
  });

  test('keeps the rest of the schema untouched, including unknown keywords and key order', () => {
    const inputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object' as const,
      properties: { q: { type: 'string', minLength: 1 }, opts: { $ref: '#/$defs/Opts' } },
      required: ['q'],
      additionalProperties: false,
      $defs: { Opts: { type: 'object', properties: { n: { type: 'integer' } } } },
      'x-custom': [1, 2],
    };
    const before = JSON.stringify(inputSchema);
    const result = toClaudeTool({ name: 't', description: 'd', inputSchema }, 't');
    expect(result.input_schema).toEqual(inputSchema);
    expect(JSON.stringify(result.input_schema)).toBe(before);
    expect(JSON.stringify(inputSchema)).toBe(before);
  });

  test('adds properties: {} when missing, without mutating the input', () => {
    const inputSchema = { type: 'object' as const };
    const result = toClaudeTool({ name: 't', inputSchema }, 't');
    expect(result.input_schema).toEqual({ type: 'object', properties: {} });
    expect(inputSchema).toEqual({ type: 'object' });
  });

  test('adds type: "object" when a schema without type slipped through', () => {
    const tool = { name: 't', inputSchema: { properties: { a: {} } } } as unknown as McpTool;
    expect(toClaudeTool(tool, 't').input_schema).toEqual({ properties: { a: {} }, type: 'object' });
  });

  test('refuses a non-object schema', () => {
    const tool = { name: 't', inputSchema: { type: 'array' } } as unknown as McpTool;
    expect(() => toClaudeTool(tool, 't')).toThrow(TypeError);
    const missing = { name: 't' } as unknown as McpTool;
    expect(() => toClaudeTool(missing, 't')).toThrow('MCP tool "t" has no input schema object');
  });

  describe('description fallbacks', () => {
    const schema = { type: 'object' as const, properties: {} };

    test('title when there is no description', () => {
      expect(toClaudeTool({ name: 't', title: 'Nice Title', inputSchema: schema }, 't').description).toBe('Nice Title');
    });

    test('annotations.title after title', () => {
      expect(toClaudeTool({ name: 't', annotations: { title: 'Ann' }, inputSchema: schema }, 't').description).toBe('Ann');
    });

    test('blank description counts as missing', () => {
      expect(toClaudeTool({ name: 't', description: '  ', title: 'T', inputSchema: schema }, 't').description).toBe('T');
    });

    test('generic text naming tool and server', () => {
      expect(toClaudeTool({ name: 'lookup', inputSchema: schema }, 'lookup', 'db').description).toBe(
        'MCP tool lookup of server db',
      );
      expect(toClaudeTool({ name: 'lookup', inputSchema: schema }, 'lookup').description).toBe('MCP tool lookup');
    });
  });
});
