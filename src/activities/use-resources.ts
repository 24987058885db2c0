/**
 * The `useResources` activity: the calls of the host's resource tools for Claude
 * (src/mcp/resources/host-resource-tools.ts). Listing gives every server's resources and templates as
 * JSON (one server's with `server`); reading gives the resource in Claude's form, cut at the same cap
 * as a tool result. What Claude asked wrongly (an unknown server or URI, a missing field) is an
 * `is_error` result it can act on; a server that cannot be reached fails the attempt, and Temporal
 * retries it (both calls are read-only).
 */
import { classified } from '../errors/classify-error';
import { HostError } from '../errors/host-error';
import type { McpConnections } from '../mcp/mcp-connections';
import { resourceBlocks } from '../mcp/resources/resource-blocks';
import { MAX_TOOL_RESULT_CHARS } from '../mcp/tool-result';
import { listResources, readServerResource } from '../mcp/resources/server-resources';
import { LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL } from '../mcp/resources/host-resource-tools';
import type { ResourceToolInput, ToolCallOutput } from './types';
import { withHeartbeats } from './with-heartbeats';

/** What `useResources` needs from the worker. */
export interface UseResourcesDeps {
  connections: McpConnections;
  /** Cap on a result's text and base64, in characters (as for tool results). */
  maxResultChars?: number;
}


function refusal(text: string): ToolCallOutput {
  return { content: text, isError: true, truncatedChars: 0 };
}

function stringField(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

async function list(deps: UseResourcesDeps, args: Record<string, unknown>): Promise<ToolCallOutput> {
  const server = stringField(args, 'server');
  const { listed, unlisted } = await listResources(deps.connections, server);
  const rows = listed.flatMap(({ server: name, resources }) =>
    resources.map((r) => ({ server: name, uri: r.uri, name: r.name, ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}), ...(r.description !== undefined ? { description: r.description } : {}) })),
  );
  const templates = listed.flatMap(({ server: name, templates: ts }) =>
    ts.map((t) => ({ server: name, uriTemplate: t.uriTemplate, name: t.name, ...(t.mimeType !== undefined ? { mimeType: t.mimeType } : {}), ...(t.description !== undefined ? { description: t.description } : {}) })),
  );
  const text = JSON.stringify({ resources: rows, ...(templates.length > 0 ? { resourceTemplates: templates } : {}), ...(unlisted.length > 0 ? { unavailable: unlisted } : {}) }, null, 1);
  const max = deps.maxResultChars ?? MAX_TOOL_RESULT_CHARS;
  if (text.length <= max) return { content: text, isError: false, truncatedChars: 0 };
  return { content: `${text.slice(0, max)}\n[host: ${text.length - max} characters cut; list one server with "server"]`, isError: false, truncatedChars: text.length - max };
}

async function read(deps: UseResourcesDeps, args: Record<string, unknown>): Promise<ToolCallOutput> {
  const server = stringField(args, 'server');
  const uri = stringField(args, 'uri');
  if (server === undefined || uri === undefined) return refusal(`[host] ${READ_RESOURCE_TOOL} needs "server" and "uri" (strings).`);
  const contents = await readServerResource(deps.connections, server, uri);
  const { blocks, truncatedChars } = resourceBlocks(contents, deps.maxResultChars);
  const only = blocks[0];
  return { content: blocks.length === 1 && only?.type === 'text' ? only.text : blocks, isError: false, truncatedChars };
}

/** Creates the `useResources` activity. */
export function createUseResources(deps: UseResourcesDeps): (input: ResourceToolInput) => Promise<ToolCallOutput> {
  return (input) =>
    withHeartbeats(
      classified(async () => {
        try {
          return input.tool === 'list_resources' ? await list(deps, input.arguments) : await read(deps, input.arguments);
        } catch (err) {
          // Claude's own mistake (or the server's refusal of it): a result it can act on.
          if (err instanceof HostError && !err.retryable) return refusal(`[host] ${input.tool === 'list_resources' ? LIST_RESOURCES_TOOL : READ_RESOURCE_TOOL}: ${err.message}`);
          throw err;
        }
      }),
    );
}
