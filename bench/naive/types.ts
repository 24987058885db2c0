/**
 * The naive design's contract: the Claude activity takes the whole conversation as its input,
 * the way most first implementations do. Pure types: the naive workflow imports them.
 */
import type { ClaudeReply } from '../../src/activities/types';
import type { ConversationOptions, MessageParam, Tool } from '../../src/conversation/types';

/** Input of `callClaudeWithMessages`: everything the request needs, recorded in history on every call. */
export interface NaiveClaudeInput {
  model: string;
  maxTokens: number;
  system?: string;
  messages: MessageParam[];
  tools: Tool[];
}

/** The naive workflow's own activity (it also schedules the real `listTools` and `callTool`). */
export interface NaiveActivities {
  callClaudeWithMessages(input: NaiveClaudeInput): Promise<ClaudeReply>;
}

/** The naive workflow's input: one user turn, run to its end. */
export interface NaiveConversationInput {
  options: ConversationOptions;
  text: string;
}

/** What the naive workflow returns. */
export interface NaiveConversationResult {
  messages: number;
  modelCalls: number;
  toolCalls: number;
  stopReason: string | null;
}
