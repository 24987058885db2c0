import { McpServer, ProtocolError, ProtocolErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/server';
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
 * The seed's `weather-server` 0.3.0 with its one tool, `get_weather`, for either protocol era: the
 * serving entry (`serveStdio`, `createMcpHandler`, or a 2025 session's `initialize`) binds each
 * instance to one era, and the handlers below never need to know which.
 *
 * The tool handlers sit on the underlying `Server` rather than going through `registerTool`, because
 * `registerTool` (SDK 2.4) changes the wire away from what the seed shows and from what 2025 clients
 * got from this server on SDK 1.x: it lists the tool with a `$schema` added, it turns arguments that
 * fail the schema into an `isError` result instead of the JSON-RPC error (-32602) the host must
 * handle itself, and it words the unknown-tool error its own way.
 * Here a city that is not found is a tool error (`isError: true`); a malformed call is a protocol
 * error. `ProtocolError` goes on the wire as it is (`{"code":-32602,"message":"Invalid params"}`),
 * with no "MCP error" prefix.
 *
 * One instance serves one connection (stdio, a 2025 HTTP session) or one 2026 HTTP request: the
 * entry points call this as their factory.
 *
 * A call that carries a W3C `traceparent` in its `_meta` (a host that traces, as MCP 2026-07-28
 * has it) is logged with it through `log`, so that a trace can be seen to cross into the server.
 */
export function createWeatherServer(log?: (message: string) => void): McpServer {
  const mcp = new McpServer({ name: 'weather-server', version: '0.3.0' });
  // Declared here, not in the constructor options: those make McpServer install its own tool
  // handlers (and advertise `listChanged`, which this fixed list never sends).
  mcp.server.registerCapabilities({ tools: {} });

  mcp.server.setRequestHandler('tools/list', () => ({ tools: [GET_WEATHER] }));

  mcp.server.setRequestHandler('tools/call', (request): CallToolResult => {
    const { name, arguments: args } = request.params;
    const traceparent = traceparentOf(request.params._meta);
    if (traceparent !== undefined) log?.(`tools/call ${name} traceparent=${traceparent}`);
    if (name !== GET_WEATHER.name) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    const parsed = GetWeatherArguments.safeParse(args ?? {});
    if (!parsed.success) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params', {
        issues: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
      });
    }
    const result = lookupWeather(parsed.data.city);
    return { content: [{ type: 'text', text: result.text }], isError: !result.ok };
  });

  return mcp;
}

/** The W3C `traceparent` a request's `_meta` carries, if any (only its well-formed value is logged). */
function traceparentOf(meta: unknown): string | undefined {
  const value = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).traceparent : undefined;
  return typeof value === 'string' && /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/.test(value) ? value : undefined;
}
