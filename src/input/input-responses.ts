/**
 * What the host answers a server's request with, in MCP's shapes: an elicitation result
 * (`{ action, content? }`), a sampling result (`CreateMessageResult`), a roots result, or, for a
 * refused sampling request, the error the spec names (JSON-RPC code -1, "User rejected sampling
 * request"). Pure: the workflow sandbox imports it.
 */
import type { InputAnswer } from './input-requests';

/** One answer as the server gets it: a result, or (2025 wire) a JSON-RPC error. */
export type ServerInputResponse = { result: Record<string, unknown> } | { error: { code: number; message: string } };

/** Answers by the host's request id (`in_…`). */
export type ServerInputResponses = Record<string, ServerInputResponse>;

/** The JSON-RPC error code a client answers a refused sampling request with (MCP sampling spec). */
export const SAMPLING_REJECTED_CODE = -1;

/** The refusal of a sampling request. */
export function samplingRejected(why: string): ServerInputResponse {
  return { error: { code: SAMPLING_REJECTED_CODE, message: `User rejected sampling request: ${why}` } };
}

/** An elicitation answered: its result as MCP writes it. */
export function elicitationResponse(answer: InputAnswer): ServerInputResponse {
  return { result: { action: answer.action, ...(answer.action === 'accept' && answer.content !== undefined ? { content: answer.content } : {}) } };
}
