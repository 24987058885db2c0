import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Tool as McpTool } from '@modelcontextprotocol/client';

/**
 * Turns a tool from an MCP server's `tools/list` into a tool definition for Claude's
 * Messages API.
 *
 * The MCP `inputSchema` is already a JSON Schema object, so it is passed through as
 * `input_schema` unchanged, apart from adding `properties: {}` when absent (Claude wants
 * an object schema with properties). The input is not mutated.
 *
 * @param tool The tool as listed by the server.
 * @param claudeName The name Claude will see, from `assignClaudeToolNames`.
 * @param server The server's config name, used only in the fallback description.
 * @throws TypeError when the input schema is not an object schema: Claude cannot call
 *   such a tool, and the SDK's own validation should have refused it already.
 */
export function toClaudeTool(tool: McpTool, claudeName: string, server?: string): Tool {
  // Typed loosely because the schema may have crossed a serialisation boundary unchecked.
  const schema: unknown = tool.inputSchema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError(`MCP tool ${JSON.stringify(tool.name)} has no input schema object`);
  }
  const fields = schema as Record<string, unknown>;
  if (fields.type !== undefined && fields.type !== 'object') {
    throw new TypeError(
      `MCP tool ${JSON.stringify(tool.name)} has an input schema of type ${JSON.stringify(fields.type)}; Claude tools take an object`,
    );
  }
  const inputSchema: Tool.InputSchema = {
    ...fields,
    type: 'object',
    properties: fields.properties ?? {},
  };
  return { name: claudeName, description: describe(tool, server), input_schema: inputSchema };
}

function describe(tool: McpTool, server: string | undefined): string {
  for (const text of [tool.description, tool.title, tool.annotations?.title]) {
    if (text !== undefined && text.trim() !== '') return text;
  }
  return server === undefined ? `MCP tool ${tool.name}` : `MCP tool ${tool.name} of server ${server}`;
}
