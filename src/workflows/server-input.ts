/**
 * Servers that ask back, in the workflow (issue 27). A request a server makes in the middle of a
 * tool call (a form or a URL for the user, a completion of Claude) is answered here:
 * - by the server's policy from the catalogue's route (`elicitation: "decline"`, `sampling: "auto"` or
 *   `"deny"`), at once;
 * - otherwise by the user: the request waits in the state's input list (`status`, `pending`, the Web
 *   UI's details, `McpHostWaitingInput`) until a `respondToInput` update answers it, for as long as it
 *   takes (or the conversation's `inputTimeoutMs`, which then declines it), with no worker held. It
 *   is workflow state and a condition, so a worker's crash changes nothing; a cancelled turn ends it.
 * A sampling request the user or policy allows runs as a `sampleMessage` activity (a Claude call with
 * the same retries and secrets rules as `callClaude`); its tokens count in the usage, and apart.
 *
 * Two ways in:
 * - a 2026-07-28 server answers `tools/call` with `input_required`: the `callTool` activity returns
 *   the requests, {@link answerInputRequests} answers them all, and the call is made again with the
 *   answers as a new activity (src/workflows/run-tools.ts). Nothing stays open while a person thinks.
 * - a 2025 server sends its request on the open connection during the call: the activity holding the
 *   call signals `inputRequested` and polls `inputResponses`; {@link serveCallInputs} runs beside the
 *   call and answers what arrives.
 * Either way an answer is kept per `tool_use` until that call finishes, under an id that the same
 * question in the same call always gets (src/input/input-requests.ts): an attempt after a lost worker
 * asked the same question is not asked again.
 *
 * Handlers only change state; the waiting tool call does the rest (house rule 2).
 */
import { ActivityFailure, CancellationScope, condition, isCancellation, setHandler } from '@temporalio/workflow';
import type { ConversationState } from '../conversation/conversation-state';
import type { ToolUseBlock } from '../conversation/transcript';
import type { ToolRoute } from '../conversation/types';
import { addUsage } from '../conversation/usage-totals';
import {
  answerInput,
  inputEntryFor,
  inputKindOf,
  inputRequestId,
  inputResponseProblem,
  removeInput,
  waitingInputs,
  type InputEntry,
  type InputResponseRequest,
  type ServerInputRequest,
} from '../input/input-requests';
import { elicitationResponse, samplingRejected, type ServerInputResponse } from '../input/input-responses';
import { withElicitationDefaults } from '../input/elicitation-schema';
import type { ToolInputRequired } from '../activities/types';
import { samplingActivities } from './activity-stubs';
import { inputRequestedSignal, inputResponsesQuery, respondToInputUpdate, type InputRequestedBy } from './definitions';
import { failureMessage } from './failure-message';
import { noteInputs } from './progress';

/** The most tokens a server's completion may take, whatever it asks (and never more than the conversation's own `maxTokens`). */
export const SAMPLING_MAX_TOKENS = 4096;

/** Requests that came by signal (2025 wire) and wait to be served by their call, in arrival order. */
const arrived: InputRequestedBy[] = [];

/** Sets the `respondToInput` update, the `inputRequested` signal and the `inputResponses` query. */
export function installInputHandlers(state: ConversationState): void {
  setHandler(
    respondToInputUpdate,
    (request) => {
      const entry = state.inputs.find((e) => e.requestId === request.requestId);
      const content = request.action === 'accept' && entry?.kind === 'elicitation' && entry.mode !== 'url' ? withElicitationDefaults(entry.requestedSchema, request.content ?? {}) : undefined;
      const by = request.withdrawn === true ? 'withdrawn' : 'user';
      const answered = answerInput(state.inputs, { requestId: request.requestId, action: request.action, by, ...(content !== undefined ? { content } : {}) });
      noteInputs();
      if (answered === undefined) throw new Error(`${request.requestId} is not waiting`);
      return { answered, stillWaiting: waitingInputs(state.inputs).length };
    },
    {
      validator: (request: InputResponseRequest) => {
        const problem = inputResponseProblem(state.inputs, request);
        if (problem !== undefined) throw new Error(problem);
      },
    },
  );
  setHandler(inputRequestedSignal, (by) => {
    if (typeof by !== 'object' || by === null || typeof by.requestId !== 'string' || typeof by.toolUseId !== 'string') return;
    arrived.push(by);
  });
  setHandler(inputResponsesQuery, (toolUseId) => state.inputResponses[toolUseId] ?? {});
}

/** The answers kept for one call (created on first use). */
function responsesOf(state: ConversationState, toolUseId: string): Record<string, ServerInputResponse> {
  const kept = state.inputResponses[toolUseId];
  if (kept !== undefined) return kept;
  const fresh: Record<string, ServerInputResponse> = {};
  state.inputResponses[toolUseId] = fresh;
  return fresh;
}

/** Waits for the user's answer to `entry` (declined by itself after the conversation's input timeout, if set). */
async function userAnswer(state: ConversationState, entry: InputEntry): Promise<NonNullable<InputEntry['answer']>> {
  state.inputs.push(entry);
  noteInputs();
  try {
    const timeoutMs = state.options.inputTimeoutMs;
    const answered = timeoutMs !== undefined ? await condition(() => entry.answer !== undefined, timeoutMs) : (await condition(() => entry.answer !== undefined), true);
    if (!answered) answerInput(state.inputs, { requestId: entry.requestId, action: 'decline', by: 'timeout' });
    return entry.answer ?? { action: 'decline', by: 'timeout' };
  } finally {
    removeInput(state.inputs, entry.requestId);
    noteInputs();
  }
}

/** Requests being answered now, by request id: the same request again (a retried call asked it anew) shares the answer. */
const answering = new Map<string, Promise<ServerInputResponse>>();

/** Answers one request, once however often it is asked: by policy, or by the user (and then, for sampling, by Claude). */
function answerOne(state: ConversationState, toolUse: ToolUseBlock, route: ToolRoute, requestId: string, request: ServerInputRequest): Promise<ServerInputResponse> {
  const kept = state.inputResponses[toolUse.id]?.[requestId];
  if (kept !== undefined) return Promise.resolve(kept);
  const under = answering.get(requestId);
  if (under !== undefined) return under;
  const answer = answerNew(state, toolUse, route, requestId, request).finally(() => answering.delete(requestId));
  answering.set(requestId, answer);
  return answer;
}

async function answerNew(state: ConversationState, toolUse: ToolUseBlock, route: ToolRoute, requestId: string, request: ServerInputRequest): Promise<ServerInputResponse> {
  const kind = inputKindOf(request);
  let response: ServerInputResponse;
  if (kind === undefined) {
    response = { error: { code: -32601, message: `the host does not answer ${request.method} here` } };
  } else if (kind === 'elicitation' && route.elicitation === 'decline') {
    response = elicitationResponse({ action: 'decline', by: 'policy' });
  } else if (kind === 'sampling' && route.sampling === 'deny') {
    response = samplingRejected(`the host's policy for server "${route.server}" denies sampling`);
  } else {
    const entry = inputEntryFor(request, {
      requestId,
      toolUseId: toolUse.id,
      tool: toolUse.name,
      server: route.server,
      since: new Date(Date.now()).toISOString(),
      turnId: state.currentTurn ?? 0,
    });
    // Withdrawn by the server: nobody answered, so nothing is kept (the same question asked again waits anew).
    let withdrawn = false;
    if (kind === 'elicitation') {
      const answer = entry === undefined ? { action: 'decline' as const, by: 'policy' as const } : await userAnswer(state, entry);
      withdrawn = answer.by === 'withdrawn';
      response = elicitationResponse(answer);
    } else {
      const allowed = route.sampling === 'auto' || entry === undefined ? { action: 'accept' as const, by: 'policy' as const } : await userAnswer(state, entry);
      withdrawn = allowed.by === 'withdrawn';
      response = allowed.action === 'accept' ? await sample(state, route, request) : samplingRejected(allowed.action === 'cancel' ? 'the user cancelled it' : 'the user declined it');
    }
    if (withdrawn) return response;
  }
  responsesOf(state, toolUse.id)[requestId] = response;
  return response;
}

/** Runs the completion a server asked for, as a `sampleMessage` activity, and counts its tokens. */
async function sample(state: ConversationState, route: ToolRoute, request: ServerInputRequest): Promise<ServerInputResponse> {
  try {
    const out = await samplingActivities(state.options).sampleMessage({
      server: route.server,
      params: request.params ?? {},
      model: state.options.model,
      maxTokensCap: Math.min(SAMPLING_MAX_TOKENS, state.options.maxTokens),
    });
    state.usage = addUsage(state.usage, out.usage);
    state.sampling = { calls: state.sampling.calls + 1, usage: addUsage(state.sampling.usage, out.usage) };
    return { result: out.result };
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    return { error: { code: -32603, message: `the host's model call failed: ${failureMessage(err)}` } };
  }
}

/**
 * Answers the requests of a 2026-07-28 `input_required` result, all at once, and returns the
 * `inputResponses` to send back (by the server's keys), with the worker's own answers (roots) in.
 * A sampling request refused (by policy or the user) has no place in `inputResponses`: the result
 * is then `undefined`, and the call ends with the refusal as its error.
 */
export async function answerInputRequests(
  state: ConversationState,
  toolUse: ToolUseBlock,
  route: ToolRoute,
  required: ToolInputRequired,
  round: number,
): Promise<{ inputResponses: Record<string, unknown> } | { refused: string }> {
  const keys = Object.keys(required.inputRequests);
  const answers = await Promise.all(
    keys.map((key) => {
      const request = required.inputRequests[key] as ServerInputRequest;
      return answerOne(state, toolUse, route, inputRequestId(toolUse.id, `${round}:${key}`, request), request);
    }),
  );
  const inputResponses: Record<string, unknown> = { ...required.answered };
  for (const [i, key] of keys.entries()) {
    const answer = answers[i] as ServerInputResponse;
    if ('error' in answer) return { refused: answer.error.message };
    inputResponses[key] = answer.result;
  }
  return { inputResponses };
}

/**
 * Runs beside a reply's tool calls for as long as `work` runs, and answers the requests their servers
 * send on the open connection (2025 wire), as the activities signal them, each as it comes (several
 * at once). Reply-wide, not per call: a 2025 request does not say which call it belongs to, so the
 * worker hands it to one of the calls in flight on that connection (src/mcp/server-requests.ts), which
 * may finish before the request is answered; the answer is still given, under that call's id, which
 * its asker keeps polling. When `work` is done, what is left (late signals, requests still waiting
 * for the user, the answers kept for these calls) is dropped.
 */
export async function serveReplyInputs<T>(state: ConversationState, uses: ReadonlyArray<{ toolUse: ToolUseBlock; route: ToolRoute }>, work: Promise<T>): Promise<T> {
  const ids = new Set(uses.map((u) => u.toolUse.id));
  const mine = (a: InputRequestedBy): boolean => ids.has(a.toolUseId);
  const scope = new CancellationScope();
  const serving = scope.run(async () => {
    for (;;) {
      await condition(() => arrived.some(mine));
      const index = arrived.findIndex(mine);
      const [next] = arrived.splice(index, 1);
      const use = uses.find((u) => u.toolUse.id === next?.toolUseId);
      // Answered side by side: one request waiting for the user holds up no other.
      if (next !== undefined && use !== undefined) void answerOne(state, use.toolUse, use.route, next.requestId, next.request).catch(() => undefined);
    }
  });
  // It ends only by the cancellation below (or the turn's), which the calls see as well.
  serving.catch(() => undefined);
  try {
    return await work;
  } finally {
    scope.cancel();
    for (let i = arrived.length - 1; i >= 0; i--) if (ids.has(arrived[i]?.toolUseId ?? '')) arrived.splice(i, 1);
    for (const entry of state.inputs.filter((e) => ids.has(e.toolUseId))) removeInput(state.inputs, entry.requestId);
    for (const id of ids) delete state.inputResponses[id];
    noteInputs();
  }
}
