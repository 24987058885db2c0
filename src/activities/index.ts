/**
 * The worker's activities, built by a factory from their dependencies so tests can inject their
 * own (a fake Messages API URL, a set of MCP servers).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import type { McpConnections } from '../mcp/mcp-connections';
import { ToolCatalogCache } from '../mcp/tool-catalog';
import { createCallClaude } from './call-claude';
import { createCallTool } from './call-tool';
import { createListTools } from './list-tools';
import { createSummarizeContext } from './summarize-context';
import { TranscriptReader } from './transcript-reader';
import type { ConversationActivities } from './types';

/** Everything the activities reach: secrets live here, in the worker, never in a payload. */
export interface ActivityDeps {
  claude: Anthropic;
  /** A Temporal client, used to read transcripts from the workflows (queries). */
  temporal: Client;
  mcp: McpConnections;
  maxResultChars?: number;
}

/** Creates the activities of the conversation workflow. */
export function createActivities(deps: ActivityDeps): ConversationActivities {
  const transcripts = new TranscriptReader(deps.temporal);
  return {
    callClaude: createCallClaude({ claude: deps.claude, transcripts }),
    summarizeContext: createSummarizeContext({ claude: deps.claude, transcripts }),
    listTools: createListTools(new ToolCatalogCache(deps.mcp)),
    callTool: createCallTool({
      connections: deps.mcp,
      ...(deps.maxResultChars !== undefined ? { maxResultChars: deps.maxResultChars } : {}),
    }),
  };
}

export type { ConversationActivities } from './types';
