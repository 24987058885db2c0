import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { lookupWeather } from './cities';

/** The tool exactly as the seed's `tools/list` shows it (with the `description` its request to Claude adds). */
const GET_WEATHER: Tool = {
  name: 'get_weather',
  description: '根据城市名查询实时天气',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', description: '城市名，如北京' } },
    required: ['city'],
  },
};

const GetWeatherArguments = z.object({ city: z.string() });

/**
 * A JSON-RPC error the SDK sends as-is: `Protocol` copies `code`, `message` and `data` from
 * whatever a handler throws. `McpError` would prefix the message with "MCP error -32602: ",
 * and the seed's wire shows a bare `{"code":-32602,"message":"Invalid params"}`.
 */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * The seed's `weather-server` 0.3.0 with its one tool, `get_weather`.
 *
 * The tool handlers sit on the underlying `Server` rather than going through `registerTool`, because
 * `registerTool` (SDK 1.32) changes the wire away from what the seed shows: it adds `$schema` and
 * `execution` to the listed tool, and it turns an unknown tool or arguments that fail the schema
 * into an `isError` result instead of the JSON-RPC error (-32602) the host must handle itself.
 * Here a city that is not found is a tool error (`isError: true`); a malformed call is a protocol error.
 *
 * One instance serves one connection: the HTTP entry point creates one per session.
 */
export function createWeatherServer(): McpServer {
  const mcp = new McpServer({ name: 'weather-server', version: '0.3.0' });
  // Declared here, not in the constructor options: those make McpServer install its own tool
  // handlers (and advertise `listChanged`, which this fixed list never sends).
  mcp.server.registerCapabilities({ tools: {} });

  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [GET_WEATHER] }));

  mcp.server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    const { name, arguments: args } = request.params;
    if (name !== GET_WEATHER.name) {
      throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    const parsed = GetWeatherArguments.safeParse(args ?? {});
    if (!parsed.success) {
      throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid params', {
        issues: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
      });
    }
    const result = lookupWeather(parsed.data.city);
    return { content: [{ type: 'text', text: result.text }], isError: !result.ok };
  });

  return mcp;
}
