/**
 * Tool approval from the client side (issue 10): approve or deny the tool calls a conversation's
 * turn waits on, find every conversation waiting (visibility, `McpHostWaitingApproval = true`, or
 * `McpHostWaitingInput = true` for servers' requests for input, issue 27: input-requests.ts), and
 * watch a waiting send for approvals. The CLI (`mcp-host pending | approve | deny`) and
 * `ConversationClient` call these.
 */
import type { Client } from '@temporalio/client';
import type { PendingApproval } from '../approval/pending-approvals';
import { pendingInputLine, type PendingInput } from '../input/input-requests';
import type { TurnResult } from '../conversation/types';
import { conversationWorkflow } from '../workflows';
import { approveToolCallsUpdate, denyToolCallsUpdate, statusQuery, type ApprovalAnswer } from '../workflows/definitions';
import { WAITING_APPROVAL_ATTRIBUTE, WAITING_INPUT_ATTRIBUTE } from '../workflows/progress-attributes';
import { pendingApprovalLine } from '../workflows/progress-text';
import { existing } from './commands';
import { progressAttributesRegistered, waitingInputAttributeRegistered } from './progress-attributes';
import { pendingInputLines } from './render-inputs';

export type { ApprovalAnswer, PendingApproval };

/** Unwraps the validator's refusal ("Update … rejected: <reason>") to the reason itself. */
export function refused(err: unknown): never {
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

/** A conversation with tool calls waiting for approval, or servers' requests waiting for input. */
export interface WaitingConversation {
  id: string;
  pending: PendingApproval[];
  /** Servers' requests waiting for the user's answer (`mcp-host respond`); always set by {@link listPendingApprovals}. */
  pendingInputs?: PendingInput[];
  /** Set when its status could not be read (no worker answered): listed by visibility alone. */
  error?: string;
}

/**
 * Every running conversation of the task queue whose turn waits for approval or for input, from
 * visibility (the `McpHostWaitingApproval` search attribute, or `McpHostWaitingInput` where the
 * namespace has it registered), each with its waiting calls and requests read from its status (so a
 * row visibility has not caught up with yet is left out).
 */
export async function listPendingApprovals(client: Client, options: { taskQueue?: string; limit?: number } = {}): Promise<WaitingConversation[]> {
  if (!(await progressAttributesRegistered(client))) {
    throw new Error(`cannot list pending approvals: the namespace has no ${WAITING_APPROVAL_ATTRIBUTE.name} search attribute (register it: docs/cluster.md#search-attributes); ask one conversation with \`mcp-host status ID\``);
  }
  if (options.taskQueue !== undefined && /["'\\]/.test(options.taskQueue)) throw new Error(`a task queue with quotes or backslashes cannot be listed: ${options.taskQueue}`);
  const waiting = (await waitingInputAttributeRegistered(client))
    ? `(${WAITING_APPROVAL_ATTRIBUTE.name} = true OR ${WAITING_INPUT_ATTRIBUTE.name} = true)`
    : `${WAITING_APPROVAL_ATTRIBUTE.name} = true`;
  const query = [
    `WorkflowType = '${conversationWorkflow.name}'`,
    `ExecutionStatus = 'Running'`,
    waiting,
    ...(options.taskQueue !== undefined ? [`TaskQueue = "${options.taskQueue}"`] : []),
  ].join(' AND ');
  const limit = options.limit ?? 100;
  const found: WaitingConversation[] = [];
  for await (const execution of client.workflow.list({ query, pageSize: Math.min(limit, 1000) })) {
    try {
      const status = await client.workflow.getHandle(execution.workflowId).query(statusQuery);
      // Statuses of workers before servers' input requests have no such field.
      const pendingInputs = status.pendingInputs ?? [];
      if (status.pendingApprovals.length > 0 || pendingInputs.length > 0) found.push({ id: execution.workflowId, pending: status.pendingApprovals, pendingInputs });
    } catch (err) {
      // No worker to answer (all down, or busy replaying): the conversation still waits, say so.
      found.push({ id: execution.workflowId, pending: [], pendingInputs: [], error: err instanceof Error ? err.message : String(err) });
    }
    if (found.length >= limit) break;
  }
  return found;
}

/**
 * `mcp-host pending` as text: each conversation, then its waiting calls, then its waiting requests
 * for input (each with its form's fields or its URL). `inputs`: the listing looked for those too,
 * which the line for an empty listing says.
 */
export function renderPendingApprovals(rows: readonly WaitingConversation[], options: { inputs?: boolean } = {}): string {
  if (rows.length === 0) return options.inputs === true ? 'no tool call waits for approval, no server waits for input' : 'no tool call waits for approval';
  return rows
    .map((row) => {
      if (row.error !== undefined) return `${row.id}  (waiting, but its calls could not be read: ${row.error})`;
      const inputs = row.pendingInputs ?? [];
      return [
        `${row.id}  (turn ${row.pending[0]?.turnId ?? inputs[0]?.turnId ?? '?'})`,
        ...row.pending.map((p) => `  ${pendingApprovalLine(p)}`),
        ...inputs.flatMap((input) => pendingInputLines(input).map((line) => `  ${line}`)),
      ].join('\n');
    })
    .join('\n');
}

/** What an approve or deny did, in one line. */
export function renderApprovalAnswer(verb: 'approved' | 'denied', answer: ApprovalAnswer): string {
  const calls = answer.decided.map((p) => `${p.toolUseId} (${p.tool})`).join(', ');
  return `${verb} ${calls}${answer.stillWaiting > 0 ? `; ${answer.stillWaiting} still waiting` : ''}`;
}

/** How a waiting send tells the user what waits and how to go on. */
export function waitingNotice(id: string, pending: readonly PendingApproval[], inputs: readonly PendingInput[] = []): string {
  const turnId = pending[0]?.turnId ?? inputs[0]?.turnId ?? '?';
  return [
    ...(pending.length > 0
      ? [
          `turn ${turnId} of ${id} waits for approval of ${pending.length} tool call${pending.length === 1 ? '' : 's'}:`,
          ...pending.map((p) => `  ${pendingApprovalLine(p)}`),
          `approve: mcp-host approve ${id} [TOOL_USE_ID…]   deny: mcp-host deny ${id} [TOOL_USE_ID…] [--reason TEXT]`,
        ]
      : []),
    ...(inputs.length > 0
      ? [
          `turn ${turnId} of ${id} waits for your answer to ${inputs.length} request${inputs.length === 1 ? '' : 's'} of its servers:`,
          ...inputs.map((i) => `  ${pendingInputLine(i)}`),
          `answer: mcp-host respond ${id} REQUEST_ID --json CONTENT | --accept | --decline | --cancel   (mcp-host pending shows the forms)`,
        ]
      : []),
    `the turn goes on once decided; its answer then shows in mcp-host status ${id} / history ${id}`,
  ].join('\n');
}

/** A turn's answer, or the calls it waits on. */
export type TurnOrApproval = { kind: 'answer'; result: TurnResult } | { kind: 'approval'; pending: PendingApproval[]; inputs?: PendingInput[] };

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
        const { pendingApprovals, pendingInputs = [] } = await handle.query(statusQuery);
        if (pendingApprovals.length > 0 || pendingInputs.length > 0) return { kind: 'approval', pending: pendingApprovals, inputs: pendingInputs };
      } catch {
        // No worker to answer right now, or the run is continuing as new: ask again.
      }
    }
    return answer;
  };
  return Promise.race([answer, watch()]);
}
