/**
 * What a tool call needs to know of the tool as its server last listed it: the arguments to mirror
 * into `Mcp-Param-*` headers (SEP-2243), the `outputSchema` its `structuredContent` must match, and
 * whether it runs as an MCP task (`execution.taskSupport`, src/mcp/tasks). The catalogue that goes
 * to Claude carries none of these (nor should the workflow's history), so each worker keeps the
 * definitions of its own latest listing per server, here, beside its connections.
 */
import type { TaskSupport } from '../tasks/task-support';
import type { HeaderParam } from './x-mcp-header';

/** One listed tool, as far as calling it is concerned. */
export interface ToolDefinition {
  /** The arguments mirrored into `Mcp-Param-*` headers on a 2026-07-28 Streamable HTTP connection. */
  headerParams: readonly HeaderParam[];
  /** The tool's `outputSchema` as listed, unchecked; undefined when it declares none. */
  outputSchema?: unknown;
  /** The tool's `execution.taskSupport` as listed (a valid value); undefined when it lists none (`forbidden`). */
  taskSupport?: TaskSupport;
}

/** The latest listed definitions of each server's tools, in one worker. */
export class ToolDefinitions {
  private readonly byServer = new Map<string, ReadonlyMap<string, ToolDefinition>>();

  /** Replaces `server`'s definitions with those of a new listing (tool name → definition). */
  record(server: string, definitions: ReadonlyMap<string, ToolDefinition>): void {
    this.byServer.set(server, definitions);
  }

  /** Whether this worker has listed `server` at all. */
  hasListed(server: string): boolean {
    return this.byServer.has(server);
  }

  /** The definition of `tool` in `server`'s latest listing; undefined when unlisted or not in it. */
  get(server: string, tool: string): ToolDefinition | undefined {
    return this.byServer.get(server)?.get(tool);
  }
}
