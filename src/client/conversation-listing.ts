/**
 * How `mcp-host list` (and `ConversationClient.list`) reads a conversation from visibility: its
 * state from the `McpHostState` search attribute where the conversation has it, else from its memo,
 * else from the execution's status; counts from the search attributes; the last answer from the
 * memo (src/workflows/progress.ts keeps both).
 */
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { STATE_ATTRIBUTE, TOKENS_ATTRIBUTE, TOOL_CALLS_ATTRIBUTE, TURNS_ATTRIBUTE } from '../workflows/progress-attributes';

/** What the progress of a listed conversation says, as far as it is known. */
export interface ListedProgress {
  /** `idle`, `running`, `ended`; or the execution's status (`terminated`, `failed`, …) when it did not end by itself; `open` when unknown. */
  state: string;
  turns?: number;
  toolCalls?: number;
  tokens?: number;
  /** The last answer, cut to 200 characters. */
  lastMessage?: string;
}

/** The states `mcp-host list --state` filters on. */
export const LISTED_STATES = ['idle', 'running', 'ended'] as const;

/** The visibility query for conversations of a workflow type, a task queue, a state. */
export function listQuery(workflowType: string, options: { taskQueue?: string; state?: string }): string {
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'string' && /["'\\]/.test(value)) throw new Error(`a ${name} with quotes or backslashes cannot be listed: ${value}`);
  }
  return [
    `WorkflowType = '${workflowType}'`,
    // One row per conversation: a conversation that continued as new lists its current run only.
    `ExecutionStatus != 'ContinuedAsNew'`,
    ...(options.taskQueue !== undefined ? [`TaskQueue = "${options.taskQueue}"`] : []),
    ...(options.state !== undefined ? [`${STATE_ATTRIBUTE.name} = "${options.state}"`] : []),
  ].join(' AND ');
}

function memoField<T>(memo: Record<string, unknown> | undefined, key: string, type: 'string' | 'number'): T | undefined {
  const value = memo?.[key];
  return typeof value === type ? (value as T) : undefined;
}

/** The progress of one listed execution. */
export function listedProgress(execution: Pick<WorkflowExecutionInfo, 'status' | 'memo' | 'typedSearchAttributes'>): ListedProgress {
  const attributes = execution.typedSearchAttributes;
  const memo = execution.memo;
  const status = execution.status.name;
  const settled = status === 'RUNNING' || status === 'COMPLETED';
  const state = settled
    ? (attributes.get(STATE_ATTRIBUTE) ?? memoField<string>(memo, 'state', 'string') ?? (status === 'RUNNING' ? 'open' : 'ended'))
    : status.toLowerCase().replace(/_/g, ' ');
  const turns = attributes.get(TURNS_ATTRIBUTE) ?? memoField<number>(memo, 'turns', 'number');
  const toolCalls = attributes.get(TOOL_CALLS_ATTRIBUTE);
  const tokens = attributes.get(TOKENS_ATTRIBUTE);
  const lastMessage = memoField<string>(memo, 'lastMessage', 'string');
  return {
    // A conversation that ended by itself but whose attribute still says otherwise (terminated mid-upsert) is ended.
    state: status === 'COMPLETED' ? 'ended' : state,
    ...(turns !== undefined ? { turns } : {}),
    ...(toolCalls !== undefined ? { toolCalls } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(lastMessage !== undefined ? { lastMessage } : {}),
  };
}
