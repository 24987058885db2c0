/**
 * Tool approval from the client side (issue 10): approve or deny the tool calls a conversation's
 * turn waits on, find every conversation waiting (visibility, `McpHostWaitingApproval = true`), and
 * watch a waiting send for approvals. The CLI (`mcp-host pending | approve | deny`) and
 * `ConversationClient` call these.
 */
import type { Client } from '@temporalio/client';
import type { PendingApproval } from '../approval/pending-approvals';
import type { TurnResult } from '../conversation/types';
import { conversationWorkflow } from '../workflows';
import { approveToolCallsUpdate, denyToolCallsUpdate, statusQuery, type ApprovalAnswer } from '../workflows/definitions';
import { WAITING_APPROVAL_ATTRIBUTE } from '../workflows/progress-attributes';
import { pendingApprovalLine } from '../workflows/progress-text';
import { existing } from './commands';
import { progressAttributesRegistered } from './progress-attributes';

export type { ApprovalAnswer, PendingApproval };

/** Unwraps the validator's refusal ("Update … rejected: <reason>") to the reason itself. */
function refused(err: unknown): never {
  let current: unknown = err;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  throw current instanceof Error ? new Error(current.message) : err;
}

/** Approves the named waiting tool calls of conversation `id` (all waiting ones when none are named); they run at once. */
export async function approveToolCalls(client: Client, id: string, toolUseIds: string[] = []): Promise<ApprovalAnswer> {
  const handle = await existing(client, id);
  return handle.executeUpdate(approveToolCallsUpdate, { args: [toolUseIds.length > 0 ? { toolUseIds } : {}] }).catch(refused);
}

/** Denies the named waiting tool calls (all when none are named): Claude gets `is_error` saying the user declined, with the reason. */
export async function denyToolCalls(client: Client, id: string, toolUseIds: string[] = [], reason?: string): Promise<ApprovalAnswer> {
  const handle = await existing(client, id);
  const request = { ...(toolUseIds.length > 0 ? { toolUseIds } : {}), ...(reason !== undefined ? { reason } : {}) };
  return handle.executeUpdate(denyToolCallsUpdate, { args: [request] }).catch(refused);
}

/** A conversation with tool calls waiting for approval. */
export interface WaitingConversation {
  id: string;
  pending: PendingApproval[];
  /** Set when its status could not be read (no worker answered): listed by visibility alone. */
  error?: string;
}

/**
 * Every running conversation of the task queue whose turn waits for approval, from visibility (the
 * `McpHostWaitingApproval` search attribute), each with its waiting calls read from its status (so
 * a row visibility has not caught up with yet is left out).
 */
export async function listPendingApprovals(client: Client, options: { taskQueue?: string; limit?: number } = {}): Promise<WaitingConversation[]> {
  if (!(await progressAttributesRegistered(client))) {
    throw new Error(`cannot list pending approvals: the namespace has no ${WAITING_APPROVAL_ATTRIBUTE.name} search attribute (register it: docs/cluster.md#search-attributes); ask one conversation with \`mcp-host status ID\``);
  }
  if (options.taskQueue !== undefined && /["'\\]/.test(options.taskQueue)) throw new Error(`a task queue with quotes or backslashes cannot be listed: ${options.taskQueue}`);
  const query = [
    `WorkflowType = '${conversationWorkflow.name}'`,
    `ExecutionStatus = 'Running'`,
    `${WAITING_APPROVAL_ATTRIBUTE.name} = true`,
    ...(options.taskQueue !== undefined ? [`TaskQueue = "${options.taskQueue}"`] : []),
  ].join(' AND ');
  const limit = options.limit ?? 100;
  const found: WaitingConversation[] = [];
  for await (const execution of client.workflow.list({ query, pageSize: Math.min(limit, 1000) })) {
    try {
      const status = await client.workflow.getHandle(execution.workflowId).query(statusQuery);
      if (status.pendingApprovals.length > 0) found.push({ id: execution.workflowId, pending: status.pendingApprovals });
    } catch (err) {
      // No worker to answer (all down, or busy replaying): the conversation still waits, say so.
      found.push({ id: execution.workflowId, pending: [], error: err instanceof Error ? err.message : String(err) });
    }
    if (found.length >= limit) break;
  }
  return found;
}

/** `mcp-host pending` as text: each conversation, then its waiting calls. */
export function renderPendingApprovals(rows: readonly WaitingConversation[]): string {
  if (rows.length === 0) return 'no tool call waits for approval';
  return rows
    .map((row) =>
      row.error !== undefined
        ? `${row.id}  (waiting, but its calls could not be read: ${row.error})`
        : [`${row.id}  (turn ${row.pending[0]?.turnId ?? '?'})`, ...row.pending.map((p) => `  ${pendingApprovalLine(p)}`)].join('\n'),
    )
    .join('\n');
}

/** What an approve or deny did, in one line. */
export function renderApprovalAnswer(verb: 'approved' | 'denied', answer: ApprovalAnswer): string {
  const calls = answer.decided.map((p) => `${p.toolUseId} (${p.tool})`).join(', ');
  return `${verb} ${calls}${answer.stillWaiting > 0 ? `; ${answer.stillWaiting} still waiting` : ''}`;
}

/** How a waiting send tells the user what waits and how to go on. */
export function waitingNotice(id: string, pending: readonly PendingApproval[]): string {
  return [
    `turn ${pending[0]?.turnId ?? '?'} of ${id} waits for approval of ${pending.length} tool call${pending.length === 1 ? '' : 's'}:`,
    ...pending.map((p) => `  ${pendingApprovalLine(p)}`),
    `approve: mcp-host approve ${id} [TOOL_USE_ID…]   deny: mcp-host deny ${id} [TOOL_USE_ID…] [--reason TEXT]`,
    `the turn goes on once decided; its answer then shows in mcp-host status ${id} / history ${id}`,
  ].join('\n');
}

/** A turn's answer, or the calls it waits on. */
export type TurnOrApproval = { kind: 'answer'; result: TurnResult } | { kind: 'approval'; pending: PendingApproval[] };

/** How often a waiting send asks the conversation whether a tool call waits for approval. */
const WATCH_INTERVAL_MS = 1000;

/**
 * Waits for `turn` (a send's answer) while asking the conversation's status every second: resolves
 * with the answer, or with the waiting calls as soon as one waits for approval. A status query that
 * fails (no worker for a moment) is asked again; the turn's own failure rejects.
 */
export async function turnOrApproval(client: Client, id: string, turn: Promise<TurnResult>, intervalMs = WATCH_INTERVAL_MS): Promise<TurnOrApproval> {
  let settled = false;
  const answer = turn.then((result): TurnOrApproval => ({ kind: 'answer', result }));
  void answer.finally(() => (settled = true)).catch(() => undefined);
  // Wakes the watch's pause when the answer comes: a timer left running would keep a finished `send` alive up to intervalMs.
  let wake = (): void => undefined;
  void answer.finally(() => wake()).catch(() => undefined);
  const watch = async (): Promise<TurnOrApproval> => {
    const handle = client.workflow.getHandle(id);
    while (!settled) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (settled) break;
      try {
        const { pendingApprovals } = await handle.query(statusQuery);
        if (pendingApprovals.length > 0) return { kind: 'approval', pending: pendingApprovals };
      } catch {
        // No worker to answer right now, or the run is continuing as new: ask again.
      }
    }
    return answer;
  };
  return Promise.race([answer, watch()]);
}
