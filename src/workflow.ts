/**
 * `durable-mcp-host/workflow`: what is safe to import from workflow code (Temporal's sandbox) —
 * the conversation workflow, its messages (signals, queries, updates) and the data types. An
 * application's own workflow can run a conversation as a child workflow, or signal one, with these.
 */
export { conversationWorkflow, type ConversationInput } from './workflows/conversation-workflow';
export * from './workflows/definitions';
export type {
  ContentBlockParam,
  ConversationOptions,
  ConversationStatus,
  ConversationSummary,
  MessageParam,
  StopReason,
  Tool,
  TurnResult,
  TurnStatus,
  UsageTotals,
} from './conversation/types';
export type { ContextStrategy } from './context/context-strategy';
export type { Thinking, ThinkingEffort } from './conversation/thinking';
export type { Budget, BudgetLeft } from './conversation/budget';
export type { ServerToolName, ServerToolSpec } from './claude/server-tools';
