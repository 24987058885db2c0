/**
 * What MCP servers ask of the host in the middle of a tool call (issue 27): a form or a URL for the
 * user (elicitation), a completion of the host's Claude (sampling). Each becomes an entry of the
 * conversation's input list, which the workflow holds in its state like the approval list
 * (src/approval): it waits there, with no worker held, until a `respondToInput` update answers it
 * (or the policy or the conversation's input timeout does), and the waiting tool call takes the
 * answer. Roots never wait: the worker answers them from mcp.json and the conversation's roots.
 *
 * The pure transitions live here; the workflow sandbox imports this module.
 */
import { fnv1a } from '../conversation/fnv1a';
import { elicitationContentProblem } from './elicitation-schema';

/** A request a server sent, as MCP writes it: `elicitation/create`, `sampling/createMessage`, `roots/list`. */
export interface ServerInputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** What waits for an answer. */
export type InputKind = 'elicitation' | 'sampling';

/** One request from a server waiting for an answer, as `status`, `pending` and the Web UI show it. */
export interface PendingInput {
  /** The host's id of the request (`in_…`): how the user names it. Stable across attempts of the same call. */
  requestId: string;
  /** The `tool_use` whose call the server asked in. */
  toolUseId: string;
  /** The tool as Claude called it, and its server. */
  tool: string;
  server: string;
  kind: InputKind;
  /** Elicitation: `form` (fill in `requestedSchema`) or `url` (visit `url`). */
  mode?: 'form' | 'url';
  /** The server's message (elicitation), or a one-line description of the completion asked (sampling). */
  message: string;
  /** Form mode: the JSON Schema of the answer (a flat object of primitive fields). */
  requestedSchema?: Record<string, unknown>;
  /** URL mode: where the user should go (never opened by the host). */
  url?: string;
  /** URL mode: the server's id of the elicitation, which `notifications/elicitation/complete` names. */
  elicitationId?: string;
  /** When it started waiting (workflow time, ISO 8601). */
  since: string;
  /** The user turn it belongs to. */
  turnId: number;
}

/** How a request was answered: MCP's elicitation actions (for sampling, accept means the user allows it). */
export type InputAction = 'accept' | 'decline' | 'cancel';

/** The answer to one request. */
export interface InputAnswer {
  action: InputAction;
  /** Form mode, accepted: the values, checked against the schema, with its defaults applied. */
  content?: Record<string, unknown>;
  /**
   * Who answered: the user, the server's policy, the conversation's input timeout, or nobody: the
   * server withdrew the request (then nothing is kept, and the same question asked again waits anew).
   */
  by: 'user' | 'policy' | 'timeout' | 'withdrawn';
}

/** A waiting (or just answered) request, with the server's whole request. */
export interface InputEntry extends PendingInput {
  request: ServerInputRequest;
  answer?: InputAnswer;
}

/** What `respond` sends: one request by id, and the answer. */
export interface InputResponseRequest {
  requestId: string;
  action: InputAction;
  content?: Record<string, unknown>;
  /**
   * Sent by the worker, never the user: the server withdrew the request (it cancelled it, or the
   * task carrying it), so it leaves the waiting list as cancelled, and no answer is kept for it.
   */
  withdrawn?: boolean;
}

/** What a `respondToInput` update did. */
export interface InputResponseAnswer {
  answered: PendingInput;
  stillWaiting: number;
}

/** Longest message kept for display, in characters (the server's whole request stays in `request`). */
const MAX_MESSAGE_CHARS = 2000;

/**
 * The host's id of a request: the same call (`tool_use`), the same place in it (`key`: the server's
 * key and round under 2026-07-28, empty on the 2025 wire) and the same request give the same id, so
 * an attempt after a lost worker that is asked the same question finds it asked (or answered) already.
 */
export function inputRequestId(toolUseId: string, key: string, request: ServerInputRequest): string {
  const text = `${toolUseId}\n${key}\n${stableJson(request)}`;
  return `in_${fnv1a(text).toString(16).padStart(8, '0')}${fnv1a(text, 0x2b6f1d3a).toString(16).padStart(8, '0')}`;
}

/** JSON with object keys sorted, so equal requests give equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The kind of a request the user or the policy answers, or undefined for one the worker answers itself (roots) or does not know. */
export function inputKindOf(request: ServerInputRequest): InputKind | undefined {
  if (request.method === 'elicitation/create') return 'elicitation';
  if (request.method === 'sampling/createMessage') return 'sampling';
  return undefined;
}

/** The entry for a request (not yet in the list), from what the server sent. */
export function inputEntryFor(
  request: ServerInputRequest,
  at: { requestId: string; toolUseId: string; tool: string; server: string; since: string; turnId: number },
): InputEntry | undefined {
  const kind = inputKindOf(request);
  if (kind === undefined) return undefined;
  const params = request.params ?? {};
  if (kind === 'sampling') return { ...at, kind, message: clip(samplingLine(params)), request };
  const url = typeof params.url === 'string' ? params.url : undefined;
  const mode = params.mode === 'url' || (params.mode === undefined && url !== undefined && params.requestedSchema === undefined) ? 'url' : 'form';
  const schema = params.requestedSchema;
  return {
    ...at,
    kind,
    mode,
    message: clip(typeof params.message === 'string' ? params.message : ''),
    ...(mode === 'form' && typeof schema === 'object' && schema !== null ? { requestedSchema: schema as Record<string, unknown> } : {}),
    ...(mode === 'url' && url !== undefined ? { url } : {}),
    ...(typeof params.elicitationId === 'string' ? { elicitationId: params.elicitationId } : {}),
    request,
  };
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

/** One line for a sampling request: how many messages, the last one's text, the token cap. */
function samplingLine(params: Record<string, unknown>): string {
  const messages = Array.isArray(params.messages) ? params.messages : [];
  const last = messages[messages.length - 1] as { content?: unknown } | undefined;
  const content = last?.content;
  const blocks = Array.isArray(content) ? content : content !== undefined ? [content] : [];
  const text = blocks
    .map((b) => {
      const block = typeof b === 'object' && b !== null ? (b as { type?: unknown; text?: unknown }) : {};
      return block.type === 'text' && typeof block.text === 'string' ? block.text : '';
    })
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const tools = Array.isArray(params.tools) ? `, ${params.tools.length} tool${params.tools.length === 1 ? '' : 's'}` : '';
  const max = typeof params.maxTokens === 'number' ? `, at most ${params.maxTokens} tokens` : '';
  return `a completion of ${messages.length} message${messages.length === 1 ? '' : 's'}${tools}${max}: ${text}`;
}

/** The requests still waiting, oldest first, without the server's whole request. */
export function waitingInputs(entries: readonly InputEntry[]): PendingInput[] {
  return entries.filter((e) => e.answer === undefined).map(({ answer: _answer, request: _request, ...pending }) => pending);
}

/**
 * Why a `respond` cannot be taken (the update's validator refuses it, recording nothing), or
 * undefined when it can: no such request, already answered, an action that is not one, content
 * that breaks the requested schema (the error names the field), content where none is taken.
 */
export function inputResponseProblem(entries: readonly InputEntry[], request: InputResponseRequest | undefined): string | undefined {
  if (typeof request !== 'object' || request === null || typeof request.requestId !== 'string' || request.requestId === '') return 'name the request to answer (its id, in_…)';
  if (request.action !== 'accept' && request.action !== 'decline' && request.action !== 'cancel') return `the action must be accept, decline or cancel, not ${JSON.stringify(request.action)}`;
  const entry = entries.find((e) => e.requestId === request.requestId);
  const waiting = waitingInputs(entries);
  const list = waiting.length === 0 ? 'nothing waits' : `waiting: ${waiting.map((w) => `${w.requestId} (${w.server})`).join(', ')}`;
  if (entry === undefined) return `no input request waits with id ${JSON.stringify(request.requestId)}; ${list}`;
  if (entry.answer !== undefined) return `${request.requestId} was already answered (${entry.answer.action})`;
  const content = request.content;
  if (content !== undefined && (typeof content !== 'object' || content === null || Array.isArray(content))) return 'the content must be a JSON object';
  if (request.action !== 'accept' && content !== undefined) return `only an accept takes content, not a ${request.action}`;
  if (request.action !== 'accept') return undefined;
  if (entry.kind === 'sampling' || entry.mode === 'url') {
    return content === undefined ? undefined : `${request.requestId} asks for ${entry.kind === 'sampling' ? 'leave to run a completion' : 'a visit to a URL'}, which takes no content`;
  }
  return elicitationContentProblem(entry.requestedSchema, content ?? {});
}

/** Answers the named request (the validator has accepted the response) and returns it. */
export function answerInput(entries: InputEntry[], answer: InputAnswer & { requestId: string }): PendingInput | undefined {
  const entry = entries.find((e) => e.requestId === answer.requestId && e.answer === undefined);
  if (entry === undefined) return undefined;
  entry.answer = { action: answer.action, by: answer.by, ...(answer.content !== undefined ? { content: answer.content } : {}) };
  return waitingInputs([{ ...entry, answer: undefined }])[0];
}

/** Removes a request's entry (its call took the answer, or its turn was cancelled). */
export function removeInput(entries: InputEntry[], requestId: string): void {
  const index = entries.findIndex((e) => e.requestId === requestId);
  if (index >= 0) entries.splice(index, 1);
}

/** One line for a waiting request, for the Web UI's details and the CLI. */
export function pendingInputLine(input: PendingInput): string {
  if (input.kind === 'sampling') return `${input.requestId}: server "${input.server}" asks for ${input.message}`;
  if (input.mode === 'url') return `${input.requestId}: server "${input.server}" asks you to visit ${input.url ?? '(no URL)'}: ${input.message}`;
  return `${input.requestId}: server "${input.server}" asks: ${input.message}`;
}
