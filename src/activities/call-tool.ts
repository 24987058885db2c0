import { CancelledFailure, Context } from '@temporalio/activity';
import { ProtocolError, SdkError, SdkErrorCode, type Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { isToolAllowed } from '../mcp/is-tool-allowed';
import { transportFailureKind } from '../mcp/is-transport-failure';
import type { McpConnections } from '../mcp/mcp-connections';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../mcp/tool-catalog';
import { describeViolation, isProtocolViolation, protocolErrorSince } from '../mcp/protocol-errors';
import { toToolResultContent } from '../mcp/tool-result';
import { checkStructuredContent } from '../mcp/tools/structured-content-check';
import { definitionForCall, HEADER_MISMATCH, paramHeadersForCall, relistForCall } from '../mcp/tools/tool-call-definition';
import type { ToolDefinition } from '../mcp/tools/tool-definitions';
import { classified, classifyError } from '../errors/classify-error';
import { toolAttemptTimeouts } from '../errors/tool-retry-policy';
import { HostError } from '../errors/host-error';
import { callToolAsTask, taskWireOfAttempt } from './call-tool-as-task';
import { ToolAttemptBudget } from './tool-attempt-budget';
import type { ToolCallInput, ToolCallOutput, ToolInputRequired } from './types';
import { announceRoots, beginAsking, rootsFor, type CallAsker } from '../mcp/server-requests';
import type { McpServerConfig } from '../mcp/config';
import type { ServerInputRequest } from '../input/input-requests';

/** What `callTool` needs from the worker. */
export interface CallToolDeps {
  connections: McpConnections;
  /**
   * Who answers a 2025 server's request during the call (a form, a completion): in the worker, the
   * call's conversation (src/activities/call-inputs.ts). Without one, a form is cancelled and a
   * completion refused.
   */
  asker?: (context: Context, input: ToolCallInput, maxWaitMs: number) => CallAsker;
  /** Cap on a result's text, in characters (about 4 per token). */
  maxResultChars?: number;
}

/**
 * Heartbeats while the call runs, however long the tool takes, so a dead worker is noticed within
 * the heartbeat timeout (seconds) rather than the call's own timeout (minutes).
 */
const HEARTBEAT_MS = 1000;
/** After a call timed out, how long the server gets to answer a ping before its connection is dropped. */
const PING_TIMEOUT_MS = 5000;
/**
 * Results are taken as sent: `toToolResultContent` converts whatever a server returns block by block,
 * where the SDK's strict schema would reject a whole result for one unknown block. That is also why
 * the call is a plain `request` and not the SDK v2's `callTool` (which parses results with that
 * schema): the `Mcp-Param-*` headers and the output-schema check it would add are done here instead.
 */
const AnyResult = z.unknown();
/** Rounds the worker answers by itself (roots, a bare `requestState`) before it hands the call to the workflow. */
const MAX_OWN_LEGS = 10;
/** The pause before sending a bare `requestState` back (a server shedding load), as the SDK paces it. */
const REQUEST_STATE_PACING_MS = 250;

/** What a round after `input_required` adds to the call. */
type RoundParams = Pick<ToolCallInput, 'inputResponses' | 'requestState'>;

/** The longest output-schema mismatch description passed to Claude. */
const MAX_MISMATCH_CHARS = 2000;

/**
 * The `callTool` activity: one MCP `tools/call` (seed §5) on the worker's shared connection.
 *
 * - `isError` results are data (S10, S14): returned, never thrown.
 * - JSON-RPC errors (unknown tool, -32602, -32601…) go to the classifier, which makes them
 *   non-retryable; the workflow then writes the host's `is_error` result for the model (S11).
 * - A request that never reached the server (dead stdio process, refused connection, expired HTTP
 *   session) is sent again at once on a new connection. One that was in flight when the connection
 *   broke may have run: it fails retryable (`mcp.connection_lost`), and the tool retry policy
 *   decides whether it runs again.
 * - Retries follow the tool retry policy (`src/errors/tool-retry-policy.ts`): the tool's own
 *   retryable failures spend its attempt budget, counted in the heartbeat details across attempts,
 *   and the one that spends the last unit fails non-retryable; an attempt lost with its worker
 *   costs nothing.
 * - Garbage instead of the answer (not JSON, not JSON-RPC, a result that is not an object) fails
 *   as `mcp.protocol_error`, at once over Streamable HTTP, at the timeout over stdio (the SDK drops
 *   what it cannot read, so the call's answer is lost); the tool may have run.
 * - A call past the server's `timeoutMs` fails retryable (`mcp.timeout`); the SDK sends
 *   `notifications/cancelled`, and a server that then does not answer a ping has its connection
 *   dropped, so the next attempt starts a fresh process instead of queueing behind a wedged one.
 * - Temporal cancelling the activity cancels the MCP request (`notifications/cancelled`) and the
 *   activity ends as cancelled.
 * - It heartbeats every second; MCP progress notifications go into the heartbeat details (beside
 *   the failure count) and reset the call's timeout. A fast tool's call (a local activity) does not
 *   heartbeat: its attempt number counts the failures (src/errors/tool-retry-policy.ts).
 * - A result whose `structuredContent` does not match the tool's listed `outputSchema` (or that
 *   lacks it when the schema is declared) becomes an `is_error` result naming the mismatch, which
 *   Claude sees: never a failure, since the tool has run and running it again would not help. An
 *   `outputSchema` that cannot be compiled leaves results unchecked (logged).
 * - On a 2026-07-28 Streamable HTTP connection the arguments the tool marks with `x-mcp-header` are
 *   mirrored into `Mcp-Param-*` headers (SEP-2243), from this worker's latest listing of the server
 *   (listed first when it has none). A server that refuses the headers (HeaderMismatch, -32020, an
 *   HTTP 400 before anything ran) gets the server listed again and the call sent once more.
 * - A tool its server runs as an MCP task (2025-11-25 tasks, or the 2026-07-28 tasks extension) is
 *   called as a task and polled; its task id rides in the heartbeat details, so the attempt after a
 *   lost worker polls the same task and the tool runs once (`call-tool-as-task.ts`, src/mcp/tasks).
 */
export function createCallTool(deps: CallToolDeps): (input: ToolCallInput) => Promise<ToolCallOutput> {
  return async (input) => {
    const context = Context.current();
    const budget = new ToolAttemptBudget(context, input.idempotent === true);
    try {
      return await classified(() => callTool(deps, input, context, budget));
    } catch (err) {
      // Ending as cancelled (not failed) is what Temporal expects of a cancelled activity; a worker
      // shutting down cancels too, which costs the tool nothing.
      if (context.cancellationSignal.aborted) throw cancellationOf(context);
      throw budget.charge(classifyError(err));
    }
  };
}

async function callTool(deps: CallToolDeps, input: ToolCallInput, context: Context, budget: ToolAttemptBudget): Promise<ToolCallOutput> {
  const server = deps.connections.server(input.server);
  if (!isToolAllowed(server.tools, input.tool)) {
    throw new HostError(`the tool "${input.tool}" of MCP server "${input.server}" is excluded by the server's tools filter`, 'mcp.tool_denied', false);
  }
  const timeoutMs = server.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  // Progress notifications reset `timeoutMs` without end: the attempt's own deadline bounds it, as a
  // failure of the tool, before Temporal's start-to-close timeout would (which nobody counts).
  const { deadlineMs } = toolAttemptTimeouts(timeoutMs);
  const deadline = AbortSignal.timeout(deadlineMs);
  const cancelled = context.cancellationSignal;
  const signal = AbortSignal.any([cancelled, deadline]);
  let progress: unknown;
  /** The tool as this worker last listed it: headers to mirror, the output schema to check against. */
  let definition: ToolDefinition | undefined;

  /** The `tools/call` params: name and arguments, and on a 2026-07-28 round after `input_required`, the answers and the server's state. */
  const params = (again: RoundParams): Record<string, unknown> => ({
    name: input.tool,
    arguments: input.arguments,
    ...(again.inputResponses !== undefined ? { inputResponses: again.inputResponses } : {}),
    ...(again.requestState !== undefined ? { requestState: again.requestState } : {}),
  });
  /** The server has resources: its resource links can be read with the host's tool (src/mcp/resources). */
  let offersResources = false;
  const send = (again: RoundParams): Promise<unknown> =>
    deps.connections.use(input.server, async (client) => {
      offersResources = client.getServerCapabilities()?.resources !== undefined;
      definition = await definitionForCall(deps.connections, server, input.tool, signal);
      // A 2025 server's requests during the call reach this call's conversation (src/mcp/server-requests.ts).
      const asker = deps.asker?.(context, input, deadlineMs);
      const stopAsking = asker !== undefined ? beginAsking(client, asker) : undefined;
      if (client.getProtocolEra() !== 'modern') await announceRoots(client, server, input.roots ?? []);
      // ── MCP tasks (issue 27): a call its server runs as a task is polled to its result, and an attempt
      // after a lost worker polls the same task instead of calling the tool again (call-tool-as-task.ts).
      const taskWire = taskWireOfAttempt(client, definition, budget);
      if (taskWire !== undefined) {
        try {
          return await callToolAsTask(taskWire, {
            connections: deps.connections,
            server,
            input,
            client,
            definition,
            context,
            budget,
            cancelled,
            deadline,
            timeoutMs,
            deadlineMs,
            heartbeat: () => budget.heartbeat(progress),
            onprogress: (update) => {
              progress = update;
              budget.heartbeat(progress);
            },
            callParams: params(again),
            ...(asker !== undefined ? { asker } : {}),
          });
        } finally {
          stopAsking?.();
        }
      }
      // ── end of MCP tasks ──
      const request = (): Promise<unknown> => {
        const headers = paramHeadersForCall(client, server, definition, input.arguments);
        return client.request({ method: 'tools/call', params: params(again) }, AnyResult, {
          signal,
          // 2026-07-28: an `input_required` answer comes back here, for the workflow to answer.
          allowInputRequired: true,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: (update) => {
            progress = update;
            budget.heartbeat(progress);
          },
          ...(Object.keys(headers).length > 0 ? { headers } : {}),
        });
      };
      const sentAt = Date.now();
      try {
        try {
          return await request();
        } catch (err) {
          if (!(err instanceof ProtocolError && err.code === HEADER_MISMATCH) || client.getProtocolEra() !== 'modern') throw err;
          // Refused for its headers before the tool ran: the tool's schema changed since the listing.
          await relistForCall(deps.connections, server, signal);
          definition = deps.connections.toolDefinitions.get(input.server, input.tool);
          return await request();
        }
      } catch (err) {
        // Streamable HTTP: the answer to the POST itself was garbage, and the SDK rejects with it.
        if (!cancelled.aborted && isProtocolViolation(err)) throw protocolError(input, describeViolation(err));
        if (cancelled.aborted || !(isTimeout(err) || deadline.aborted)) throw err;
        await dropIfUnresponsive(deps.connections, input.server, client, Math.min(timeoutMs, PING_TIMEOUT_MS));
        // stdio (or an SSE stream): the SDK dropped a message it could not read, and the answer never came.
        const garbage = protocolErrorSince(client, sentAt);
        if (garbage !== undefined) throw protocolError(input, `${garbage}; no valid answer came within ${timeoutMs} ms`);
        const why = deadline.aborted
          ? `did not finish within ${deadlineMs} ms (progress notifications kept extending the server's timeoutMs of ${timeoutMs} ms)`
          : `timed out after ${timeoutMs} ms (the server's timeoutMs)`;
        throw new HostError(`tools/call "${input.tool}" on MCP server "${input.server}" ${why}`, 'mcp.timeout', true);
      } finally {
        stopAsking?.();
      }
      // A server that does not finish connecting fails the attempt at its deadline (a failure that
      // sent nothing) rather than after the handshake's minute, past its start-to-close timeout.
    }, { connectWaitMs: deadlineMs });

  const heartbeat = setInterval(() => budget.heartbeat(progress), HEARTBEAT_MS);
  try {
    let result: unknown;
    try {
      result = await send(input);
    } catch (err) {
      const kind = transportFailureKind(err);
      if (kind === undefined) throw err;
      if (kind === 'interrupted') {
        throw new HostError(
          `the connection to MCP server "${input.server}" broke during tools/call "${input.tool}" (${messageOf(err)}); the tool may or may not have run`,
          'mcp.connection_lost',
          true,
        );
      }
      context.log.warn(deps.connections.redact(`MCP server "${input.server}" was not reachable (${messageOf(err)}); reconnecting and sending the call again`));
      try {
        result = await send(input);
      } catch (again) {
        if (transportFailureKind(again) === undefined) throw again;
        throw new HostError(`MCP server "${input.server}" is not reachable: ${messageOf(again)}`, 'mcp.unreachable', true);
      }
    }
    if (typeof result !== 'object' || result === null || Array.isArray(result)) throw protocolError(input, 'a result that is not an object');
    // 2026-07-28: the server needs input first. Roots (and a bare `requestState` round) are the
    // worker's to answer at once; a form or a completion goes to the workflow, which keeps the wait.
    for (let leg = 1; isInputRequired(result); leg++) {
      const split = splitInputRequests(result, server, input.roots ?? []);
      if (Object.keys(split.inputRequests).length > 0 || leg > MAX_OWN_LEGS) return { content: [], isError: false, truncatedChars: 0, inputRequired: split };
      if (Object.keys(split.answered).length === 0) await context.sleep(REQUEST_STATE_PACING_MS);
      result = await send({ ...(Object.keys(split.answered).length > 0 ? { inputResponses: split.answered } : {}), ...(split.requestState !== undefined ? { requestState: split.requestState } : {}) });
      if (typeof result !== 'object' || result === null || Array.isArray(result)) throw protocolError(input, 'a result that is not an object');
    }
    const checked = checkStructuredContent(definition?.outputSchema, result);
    if (checked.kind === 'mismatch') {
      context.log.warn(deps.connections.redact(`MCP server "${input.server}" tool "${input.tool}": ${checked.detail}; Claude gets a tool error instead of the result`));
      return { content: mismatchMessage(input, checked.detail), isError: true, truncatedChars: 0 };
    }
    if (checked.kind === 'unchecked') context.log.warn(`MCP server "${input.server}" tool "${input.tool}": result not checked, ${checked.why}`);
    const converted = toToolResultContent(result, {
      ...(deps.maxResultChars !== undefined ? { maxChars: deps.maxResultChars } : {}),
      ...(offersResources ? { resourceLinkServer: input.server } : {}),
    });
    return { content: converted.content, isError: converted.isError, truncatedChars: converted.truncatedChars };
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * The server broke the protocol during the call (garbage instead of its answer): the tool may have
 * run, so the tool retry policy runs it again only when it is marked idempotent or read-only.
 */
function protocolError(input: ToolCallInput, what: string): HostError {
  return new HostError(
    `MCP server "${input.server}" broke the protocol during tools/call "${input.tool}": it sent something that is not a JSON-RPC answer (${what})`,
    'mcp.protocol_error',
    true,
  );
}

/** What Claude reads instead of a result that breaks the tool's own output schema. */
function mismatchMessage(input: ToolCallInput, detail: string): string {
  const text = `The tool "${input.tool}" of MCP server "${input.server}" returned a result that does not match its declared output schema, so it was not used: ${detail}`;
  return text.length > MAX_MISMATCH_CHARS ? `${text.slice(0, MAX_MISMATCH_CHARS)}…` : text;
}

function isTimeout(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;
}

/**
 * A server that timed out but still answers a ping (2025) or `server/discover` (2026-07-28, which
 * has no ping) is busy with that call only; one that does not is wedged.
 */
async function dropIfUnresponsive(connections: McpConnections, name: string, client: Client, timeoutMs: number): Promise<void> {
  const modern = client.getProtocolEra() === 'modern';
  try {
    if (modern) await client.discover({ timeout: timeoutMs });
    else await client.ping({ timeout: timeoutMs });
  } catch {
    connections.log(`[mcp:${name}] did not answer ${modern ? 'server/discover' : 'a ping'} after a timed-out call; dropping the connection`);
    connections.reset(name, client);
  }
}

function cancellationOf(context: Context): CancelledFailure {
  const reason: unknown = context.cancellationSignal.reason;
  return reason instanceof CancelledFailure ? reason : new CancelledFailure('the tool call was cancelled');
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A 2026-07-28 `input_required` result (SEP-2322): requests for input, or only state to send back. */
function isInputRequired(result: object): result is { resultType: 'input_required'; inputRequests?: Record<string, unknown>; requestState?: string } {
  return (result as { resultType?: unknown }).resultType === 'input_required';
}

/** Roots answered here; every other request (by the server's key) left for the workflow. */
function splitInputRequests(
  result: { inputRequests?: Record<string, unknown>; requestState?: string },
  server: McpServerConfig,
  conversationRoots: readonly string[],
): ToolInputRequired {
  const inputRequests: Record<string, ServerInputRequest> = {};
  const answered: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
    const method = typeof request === 'object' && request !== null ? (request as { method?: unknown }).method : undefined;
    if (method === 'roots/list') answered[key] = rootsFor(server, conversationRoots);
    else inputRequests[key] = { method: typeof method === 'string' ? method : 'unknown', ...paramsOf(request) };
  }
  return { inputRequests, answered, ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}) };
}

function paramsOf(request: unknown): { params?: Record<string, unknown> } {
  const params = typeof request === 'object' && request !== null ? (request as { params?: unknown }).params : undefined;
  return typeof params === 'object' && params !== null && !Array.isArray(params) ? { params: params as Record<string, unknown> } : {};
}
