/**
 * The approval flow in the workflow (issue 10): a tool call whose route says `ask` waits in the
 * state's approval list until an `approveToolCalls` / `denyToolCalls` update decides it. The wait is
 * workflow state and a condition, so it lasts as long as it must (days) and survives worker
 * restarts; a cancelled turn's scope ends it. The transitions are pure (src/approval); handlers only
 * change state, the waiting tool call does the rest (house rule 2).
 */
import { condition, setHandler } from '@temporalio/workflow';
import type { ConversationState } from '../conversation/conversation-state';
import type { ToolUseBlock } from '../conversation/transcript';
import type { ToolRoute } from '../conversation/types';
import {
  approvalRequestProblem,
  decideApprovals,
  removeApproval,
  waitingApprovals,
  type ApprovalDecision,
  type ApprovalEntry,
  type ApprovalRequest,
} from '../approval/pending-approvals';
import { approveToolCallsUpdate, denyToolCallsUpdate, type ApprovalAnswer } from './definitions';
import { PATCHES } from './patches';
import { noteApprovals } from './progress';

/**
 * The patch id of the approval flow: a history recorded by a worker that ran every tool (before
 * approval existed, or where its catalogue had no approval settings) replays as it ran.
 */
export const TOOL_APPROVAL_PATCH = PATCHES.toolApproval;

/** Sets the approve and deny update handlers. */
export function installApprovalHandlers(state: ConversationState): void {
  const answer = (decided: ApprovalAnswer['decided']): ApprovalAnswer => {
    noteApprovals();
    return { decided, stillWaiting: waitingApprovals(state.approvals).length };
  };
  setHandler(approveToolCallsUpdate, (request) => answer(decideApprovals(state.approvals, request, { kind: 'approved' })), {
    validator: (request: ApprovalRequest | undefined) => {
      const problem = approvalRequestProblem(state.approvals, request, 'approve');
      if (problem !== undefined) throw new Error(problem);
    },
  });
  setHandler(
    denyToolCallsUpdate,
    (request) => {
      const reason = request?.reason?.trim();
      return answer(decideApprovals(state.approvals, request, { kind: 'denied', ...(reason ? { reason } : {}) }));
    },
    {
      validator: (request: ApprovalRequest | undefined) => {
        const problem = approvalRequestProblem(state.approvals, request, 'deny');
        if (problem !== undefined) throw new Error(problem);
      },
    },
  );
}

/**
 * Waits for the user's decision on one tool call and returns it. Cancelled (the turn's scope), the
 * call leaves the list and the cancellation is rethrown.
 */
export async function awaitApproval(state: ConversationState, toolUse: ToolUseBlock, route: ToolRoute): Promise<ApprovalDecision> {
  const entry: ApprovalEntry = {
    toolUseId: toolUse.id,
    tool: toolUse.name,
    server: route.server,
    mcpTool: route.name,
    arguments: toolUse.input,
    since: new Date(Date.now()).toISOString(),
    turnId: state.currentTurn ?? 0,
  };
  state.approvals.push(entry);
  noteApprovals();
  try {
    await condition(() => entry.decision !== undefined);
    return entry.decision ?? { kind: 'denied' };
  } finally {
    removeApproval(state.approvals, toolUse.id);
    noteApprovals();
  }
}
