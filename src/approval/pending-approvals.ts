/**
 * Tool calls waiting for the user's approval, and the pure transitions of the approval flow: a call
 * waits, an update approves or denies some or all of the waiting calls, the waiting call takes its
 * decision and leaves the list. The workflow holds the list in its state (so a worker restart
 * changes nothing: the wait is workflow state and a condition) and the status query shows it.
 * Pure and deterministic: the workflow sandbox imports it.
 */

/** A tool call waiting for approval. */
export interface PendingApproval {
  /** The `tool_use` block's id (`toolu_…`): how the user names the call. */
  toolUseId: string;
  /** The tool's name as Claude called it. */
  tool: string;
  /** The MCP server that has the tool, and the tool's MCP name there. */
  server: string;
  mcpTool: string;
  /** The arguments Claude gave (the `tool_use` input). */
  arguments: unknown;
  /** When it started waiting (workflow time, ISO 8601). */
  since: string;
  /** The user turn it belongs to. */
  turnId: number;
}

/** What the user decided for one call. */
export type ApprovalDecision = { kind: 'approved' } | { kind: 'denied'; reason?: string };

/** A waiting call, with the decision once one arrived (until the call takes it). */
export interface ApprovalEntry extends PendingApproval {
  decision?: ApprovalDecision;
}

/** What an approve or deny update names: some calls by `tool_use` id, or (none named) every waiting one. */
export interface ApprovalRequest {
  toolUseIds?: string[];
  /** Why the user denies (deny only): Claude reads it in the `is_error` result. */
  reason?: string;
}

/** Longest deny reason taken, in characters. */
export const MAX_REASON_CHARS = 2000;

/** The calls still waiting for a decision, oldest first. */
export function waitingApprovals(entries: readonly ApprovalEntry[]): PendingApproval[] {
  return entries.filter((e) => e.decision === undefined).map(({ decision: _decision, ...pending }) => pending);
}

/**
 * Why an approve or deny request cannot be taken (the update's validator refuses it, recording
 * nothing), or undefined when it can: nothing waits, or an id names no waiting call.
 */
export function approvalRequestProblem(entries: readonly ApprovalEntry[], request: ApprovalRequest | undefined, verb: 'approve' | 'deny'): string | undefined {
  const ids = request?.toolUseIds;
  if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id === ''))) {
    return 'toolUseIds must be a list of tool_use ids';
  }
  const reason = request?.reason;
  if (reason !== undefined && (typeof reason !== 'string' || verb !== 'deny')) {
    return verb === 'deny' ? 'the reason must be text' : 'only a deny takes a reason';
  }
  if (reason !== undefined && Array.from(reason).length > MAX_REASON_CHARS) return `the reason is longer than ${MAX_REASON_CHARS} characters`;
  const waiting = waitingApprovals(entries);
  if (waiting.length === 0) return `nothing to ${verb}: no tool call of this conversation waits for approval`;
  if (ids === undefined || ids.length === 0) return undefined;
  const unknown = ids.filter((id) => !waiting.some((w) => w.toolUseId === id));
  if (unknown.length === 0) return undefined;
  const decided = unknown.filter((id) => entries.some((e) => e.toolUseId === id));
  const names = (list: string[]): string => list.map((id) => JSON.stringify(id)).join(', ');
  const about = decided.length > 0 && decided.length === unknown.length
    ? `${names(decided)} ${decided.length === 1 ? 'was' : 'were'} already decided`
    : `no tool call waits for approval with id ${names(unknown)}`;
  return `${about}; waiting: ${waiting.map((w) => `${w.toolUseId} (${w.tool})`).join(', ')}`;
}

/**
 * Decides the named waiting calls (all waiting ones when none are named) and returns them. Ids
 * that name no waiting call are skipped (the validator refused such requests already).
 */
export function decideApprovals(entries: ApprovalEntry[], request: ApprovalRequest | undefined, decision: ApprovalDecision): PendingApproval[] {
  const ids = request?.toolUseIds;
  const chosen = entries.filter((e) => e.decision === undefined && (ids === undefined || ids.length === 0 || ids.includes(e.toolUseId)));
  for (const entry of chosen) entry.decision = decision;
  return chosen.map(({ decision: _decision, ...pending }) => pending);
}

/** Removes a call's entry (it took its decision, or its turn was cancelled). */
export function removeApproval(entries: ApprovalEntry[], toolUseId: string): void {
  const index = entries.findIndex((e) => e.toolUseId === toolUseId);
  if (index >= 0) entries.splice(index, 1);
}

/** The text a deny reason is quoted in: one line, trimmed. */
function quotedReason(reason: string | undefined): string {
  const line = (reason ?? '').replace(/\s+/g, ' ').trim();
  return line === '' ? '' : ` Their reason: ${line}`;
}

/** The host's `is_error` text for a call the user denied. */
export function userDeclinedText(tool: string, reason?: string): string {
  return `[host] Not run: the user declined the call of tool "${tool}".${quotedReason(reason)}`;
}

/** The host's `is_error` text for a call the config's policy denies (`approval: "deny"`). */
export function policyDeniedText(tool: string, server: string): string {
  return `[host] Not run: the host's policy does not allow tool "${tool}" (server "${server}" is set to approval "deny"). Do not call it again; answer without it.`;
}

/** The host's `is_error` text for a call whose turn was cancelled while it waited for approval. */
export function cancelledWhileWaitingText(tool: string): string {
  return `[host] Not run: the turn was cancelled while tool "${tool}" waited for the user's approval.`;
}
