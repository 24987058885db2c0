/**
 * The `callTool` activity's side of a 2025 server's request during the call (issue 27): the
 * request goes to the conversation by the `inputRequested` signal, and the activity, which holds
 * the call and keeps heartbeating, polls the conversation's `inputResponses` query until the answer
 * is there (the user's, the policy's, or Claude's for sampling), for as long as the call's attempt
 * may last. Asked first whether the same question of the same call was answered already (an
 * attempt after a lost worker), it is then not asked again. The request id is the one the workflow
 * computes (src/input/input-requests.ts). A request the server withdraws (`notifications/cancelled`,
 * or `tasks/cancel` of the task carrying it) leaves the conversation's waiting list, and no answer
 * is kept for it.
 */
import type { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { inputRequestId, type ServerInputRequest } from '../input/input-requests';
import type { ServerInputResponse } from '../input/input-responses';
import type { CallAsker } from '../mcp/server-requests';
import { inputRequestedSignal, inputResponsesQuery, respondToInputUpdate } from '../workflows/definitions';
import type { ToolCallInput } from './types';

/** How often the activity asks its conversation for the answer. */
const POLL_MS = 500;
/** How often a withdrawn request is tried to be settled before the conversation has taken it in. */
const WITHDRAW_ATTEMPTS = 4;

/** The error a withdrawn request's ask ends with (nobody reads it: the server no longer waits). */
function withdrawal(request: ServerInputRequest, requestId: string): Error {
  return new Error(`the server withdrew its ${request.method} (${requestId})`);
}

/** The asker of one `callTool` attempt, for src/mcp/server-requests.ts. */
export function callAsker(temporal: Client, context: Context, input: ToolCallInput, maxWaitMs: number): CallAsker {
  const workflowId = context.info.workflowExecution?.workflowId;
  if (workflowId === undefined) throw new Error('a tool call outside a workflow cannot ask its conversation');
  const handle = temporal.workflow.getHandle(workflowId);
  const answerTo = async (requestId: string): Promise<ServerInputResponse | undefined> => (await handle.query(inputResponsesQuery, input.toolUseId))[requestId];
  /** URL elicitations asked in this attempt: the server's elicitation id → the host's request id. */
  const urlRequests = new Map<string, string>();
  /**
   * A request the server withdrew leaves the conversation's waiting list, settled as cancelled
   * (the way `complete` settles a URL visit) and marked withdrawn, so that no answer is kept for it:
   * a server that asks the same question again (after its own timeout, say) is asked anew. Refused
   * while the conversation has not taken the request in yet (the signal is on its way), so tried
   * again a few times; refused for good once it was answered (or needed nobody: a completion the
   * policy allowed).
   */
  const settleWithdrawn = async (requestId: string): Promise<void> => {
    for (let attempt = 0; attempt < WITHDRAW_ATTEMPTS; attempt++) {
      const settled = await handle.executeUpdate(respondToInputUpdate, { args: [{ requestId, action: 'cancel', withdrawn: true }] }).then(
        () => true,
        () => false,
      );
      if (settled || (await answerTo(requestId).catch(() => undefined)) !== undefined) return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  /** Asks in progress in this attempt, by request id: the same question asked again while the first ask still waits. */
  const asking = new Map<string, number>();
  /** Withdrawals being settled, by request id: the same question asked again meanwhile waits until it is. */
  const settling = new Map<string, Promise<void>>();
  /**
   * Withdraws a request, unless the server asked the same question again meanwhile (it is wanted
   * still, under the same id): settled, no answer is kept, so an ask that comes later waits anew.
   */
  const withdraw = async (requestId: string): Promise<void> => {
    if ((asking.get(requestId) ?? 0) > 1) return;
    const settled = settleWithdrawn(requestId).finally(() => settling.delete(requestId));
    settling.set(requestId, settled);
    await settled;
  };
  return {
    roots: input.roots ?? [],
    cancelled: context.cancellationSignal,
    complete: async (elicitationId: string): Promise<void> => {
      const requestId = urlRequests.get(elicitationId);
      if (requestId === undefined) return;
      // The user finished the flow the URL started: the request is settled as accepted, unless it was answered already.
      await handle.executeUpdate(respondToInputUpdate, { args: [{ requestId, action: 'accept' }] }).catch(() => undefined);
    },
    ask: async (request: ServerInputRequest, withdrawn?: AbortSignal): Promise<ServerInputResponse> => {
      const requestId = inputRequestId(input.toolUseId, '', request);
      asking.set(requestId, (asking.get(requestId) ?? 0) + 1);
      try {
        await settling.get(requestId);
        return await askOnce(request, requestId, withdrawn);
      } finally {
        const left = (asking.get(requestId) ?? 1) - 1;
        if (left > 0) asking.set(requestId, left);
        else asking.delete(requestId);
      }
    },
  };

  /** One ask of `request` (`requestId`): its answer, kept or awaited. */
  async function askOnce(request: ServerInputRequest, requestId: string, withdrawn?: AbortSignal): Promise<ServerInputResponse> {
    const elicitationId = request.params?.elicitationId;
    if (request.params?.mode === 'url' && typeof elicitationId === 'string') urlRequests.set(elicitationId, requestId);
    const known = await answerTo(requestId);
    if (known !== undefined) return known;
    // A call cancelled already tells its conversation nothing: the request goes on to another call (src/mcp/server-requests.ts).
    if (context.cancellationSignal.aborted) throw new Error('the tool call was cancelled before its server asked');
    // Read through a function: the narrowing of a first check would hide the abort that comes later.
    const isWithdrawn = (): boolean => withdrawn?.aborted === true;
    if (isWithdrawn()) throw withdrawal(request, requestId);
    await handle.signal(inputRequestedSignal, { requestId, toolUseId: input.toolUseId, server: input.server, request });
    context.log.info(`MCP server "${input.server}" asked for ${request.method} during tools/call "${input.tool}" (${requestId}); waiting for the conversation's answer`);
    // Polled for as long as the call's attempt may last: a request the server made while another
    // call of the connection was running may outlive this one (src/workflows/server-input.ts).
    const signal = context.cancellationSignal;
    const giveUpAt = Date.now() + maxWaitMs;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (signal.aborted) throw new Error('the tool call was cancelled while its server waited for an answer');
      if (isWithdrawn()) {
        await withdraw(requestId);
        throw withdrawal(request, requestId);
      }
      const answer = await answerTo(requestId);
      if (answer !== undefined) return answer;
      if (Date.now() > giveUpAt) throw new Error(`no answer to ${request.method} (${requestId}) within ${maxWaitMs} ms`);
    }
  }
}
