/**
 * The activities' contract: inputs and outputs as they appear in the workflow history.
 * None carries the conversation or a secret: the Claude call gets a reference and reads the
 * messages from the workflow; tool calls name a server, never its command, env or headers.
 */
import type { CacheOptions } from '../claude/cache-breakpoints';
import type { ContextStrategy } from '../context/context-strategy';
import type { ContextSummary } from '../context/context-summary';
import type { ContentBlockParam, MessageParam, StopReason, ToolCatalog, TranscriptRef } from '../conversation/types';
import type { ToolResultBlock } from '../conversation/transcript';
import type { ReplyUsage } from '../claude/reply-usage';
import type { ServerInputRequest } from '../input/input-requests';
import type { Thinking } from '../conversation/thinking';
import type { ToolSearchSetting } from '../claude/tool-search';
import type { ContainerRef, ServerToolSpec } from '../claude/server-tools';

/** Input of `callClaude`. */
export interface ClaudeCallInput {
  transcript: TranscriptRef;
  /** The catalogue whose tools go out with the request (S12: `tools` on every request). */
  catalogDigest: string;
  model: string;
  maxTokens: number;
  system?: string;
  /** What of the transcript to send; with a summary, how many messages it covers (read by query). */
  context: { strategy: ContextStrategy; summaryCovers: number };
  promptCache: CacheOptions;
  /**
   * Claude's thinking for this call (the turn's setting, src/conversation/thinking.ts). Absent when
   * off, and in calls scheduled before it existed: no `thinking` field goes out.
   */
  thinking?: Thinking;
  /**
   * The conversation's tool search (src/claude/tool-search.ts): its mode and the context window
   * `auto` measures the tool definitions against. Absent in calls scheduled before it existed: the
   * tools go as they always went.
   */
  toolSearch?: ToolSearchSetting;
  /**
   * The conversation's server tools (src/claude/server-tools.ts), sent beside the MCP tools. Absent
   * when it offers none, and in calls scheduled before they existed.
   */
  serverTools?: ServerToolSpec[];
  /**
   * The code execution container the conversation's last reply named: sent as the request's
   * `container` while code execution is on and it has not expired, so Claude's code keeps its files.
   */
  container?: ContainerRef;
  /**
   * The messages added since the previous Claude call of this run (messages[from, transcript.messageCount)),
   * so a worker that holds the rest in its cache needs no query. Absent in calls scheduled before it
   * existed, for the first call after a continue-as-new, and when they are larger than
   * ADDED_MESSAGES_MAX_CHARS (`src/workflows/run-turn.ts`): then the activity queries, as before.
   */
  added?: AddedMessages;
}

/** A slice of the transcript carried in a Claude call's input. */
export interface AddedMessages {
  from: number;
  messages: MessageParam[];
}

/** The `countTokens` activity's answer: the next request's input tokens, or why the worker did not count. */
export type TokenCount = { inputTokens: number } | { skipped: string };

/** Input of `summarizeContext`: which older messages to fold into the summary. */
export interface SummarizeInput {
  transcript: TranscriptRef;
  model: string;
  keepRecentTurns: number;
  /** Messages the current summary covers (0: none yet); its text is read from the workflow. */
  previousCovers: number;
}

/** A new summary (null when there was nothing new to fold in) and what writing it cost. */
export interface SummarizeResult {
  summary: ContextSummary | null;
  usage: ReplyUsage;
}

/** One Messages API response, in the request form its content goes back in. */
export interface ClaudeReply {
  /** `msg_…`: the message id, never to be confused with a `toolu_…` id (S8). */
  id: string;
  model: string;
  content: ContentBlockParam[];
  stopReason: StopReason | null;
  stopSequence: string | null;
  usage: ReplyUsage;
  /** The code execution container the reply used (absent when it used none): later calls reuse it. */
  container?: ContainerRef;
}

/** Input of `listTools`: the digest the workflow already has, so an unchanged list costs nothing. */
export interface ListToolsInput {
  knownDigest?: string;
}

/** Output of `listTools`. */
export type ListToolsResult = { changed: false } | { changed: true; catalog: ToolCatalog };

/** Input of `callTool`: one MCP `tools/call`. */
export interface ToolCallInput {
  server: string;
  /** The exact MCP tool name (not the Claude-visible one). */
  tool: string;
  arguments: Record<string, unknown>;
  /** For logs and the Web UI: which `tool_use` this answers. */
  toolUseId: string;
  /**
   * The server marked the tool idempotent or read-only: it gets the larger attempt budget
   * (`src/errors/tool-retry-policy.ts`). Absent in calls scheduled before the field existed: not idempotent.
   */
  idempotent?: boolean;
  /** The conversation's own roots (`start --root`), offered beside the server's when it asks for `roots/list`. */
  roots?: string[];
  /**
   * A 2026-07-28 server answered the previous round with `input_required`: this round sends the
   * answers (by the server's keys) and its `requestState` back, byte for byte (SEP-2322).
   */
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/**
 * A 2026-07-28 server needs input before it can answer (`resultType: "input_required"`): the
 * requests the workflow must have answered (elicitation, sampling; by the server's keys), the
 * answers the worker gave itself (roots), and the state to send back.
 */
export interface ToolInputRequired {
  inputRequests: Record<string, ServerInputRequest>;
  answered: Record<string, unknown>;
  requestState?: string;
}

/** Input of `sampleMessage`: a server's `sampling/createMessage` params, to be answered by Claude. */
export interface SamplingInput {
  server: string;
  /** The request's params as the server sent them (messages, systemPrompt, maxTokens, modelPreferences, tools…). */
  params: Record<string, unknown>;
  /** The conversation's model: the default when the server's preferences name none Claude has. */
  model: string;
  /** The most tokens the host lets a server's completion take, whatever it asks. */
  maxTokensCap: number;
}

/** Output of `sampleMessage`: the MCP `CreateMessageResult` and the tokens it took. */
export interface SamplingOutput {
  result: Record<string, unknown>;
  usage: ReplyUsage;
}

/** Output of `callTool`: the MCP result already in `tool_result` form (S10, S13, S14). */
export interface ToolCallOutput {
  content: ToolResultBlock['content'];
  isError: boolean;
  truncatedChars: number;
  /** Set instead of a result when a 2026-07-28 server needs input first (the other fields are then empty). */
  inputRequired?: ToolInputRequired;
}

/** A call of one of the host's resource tools (src/mcp/resources/host-resource-tools.ts). */
export interface ResourceToolInput {
  tool: 'list_resources' | 'read_resource';
  /** Claude's input, as it gave it: `server`, and `uri` to read. */
  arguments: Record<string, unknown>;
  /** For logs and the Web UI: which `tool_use` this answers. */
  toolUseId: string;
}

/** The activities the conversation workflow schedules. */
export interface ConversationActivities {
  callClaude(input: ClaudeCallInput): Promise<ClaudeReply>;
  listTools(input: ListToolsInput): Promise<ListToolsResult>;
  callTool(input: ToolCallInput): Promise<ToolCallOutput>;
  summarizeContext(input: SummarizeInput): Promise<SummarizeResult>;
  countTokens(input: ClaudeCallInput): Promise<TokenCount>;
  sampleMessage(input: SamplingInput): Promise<SamplingOutput>;
  useResources(input: ResourceToolInput): Promise<ToolCallOutput>;
}
