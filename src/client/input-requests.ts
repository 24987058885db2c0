/**
 * Servers' requests for input from the client side (issue 27): answer one request a server made in
 * the middle of a tool call (a form, a URL visit, leave to run a completion) by its id: accept (with
 * the form's content), decline or cancel. The CLI (`mcp-host respond`), chat's inline prompt
 * (input-prompt.ts) and `ConversationClient.respond` call this; `mcp-host pending` lists the waiting
 * requests beside the waiting approvals (approvals.ts, `listPendingApprovals`).
 */
import type { Client } from '@temporalio/client';
import type { InputAction, InputResponseAnswer, InputResponseRequest, PendingInput } from '../input/input-requests';
import { respondToInputUpdate } from '../workflows/definitions';
import { existing } from './commands';
import { refused } from './approvals';

export type { InputAction, InputResponseAnswer, InputResponseRequest, PendingInput };

/** The answer to one request: accept (a form's values as `content`), decline or cancel. */
export interface InputResponse {
  action: InputAction;
  content?: Record<string, unknown>;
}

/**
 * Answers the waiting request `request.requestId` of conversation `id`; the tool call that waits on
 * it goes on at once. Refused with one line, nothing recorded, for an unknown or already answered
 * request, or content that breaks the form's schema (the line names the field).
 */
export async function respondToInput(client: Client, id: string, request: InputResponseRequest): Promise<InputResponseAnswer> {
  const handle = await existing(client, id);
  return handle.executeUpdate(respondToInputUpdate, { args: [request] }).catch(refused);
}

/**
 * Whether a refusal says the request was answered meanwhile (by another terminal, `mcp-host
 * respond`, the policy or the input timeout): how (its action), `gone` when its tool call has taken
 * the answer already, or undefined for any other refusal. Chat says so and goes on.
 */
export function answeredMeanwhile(message: string): InputAction | 'gone' | undefined {
  const action = / was already answered \((accept|decline|cancel)\)/.exec(message)?.[1];
  if (action !== undefined) return action as InputAction;
  return message.startsWith('no input request waits with id') ? 'gone' : undefined;
}
