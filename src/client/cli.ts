/**
 * `mcp-host`: start conversations, send turns, read history and status, end them, or chat.
 * Every verb is also a library function (commands.ts). Errors: one line on stderr, exit code 1;
 * bad usage: exit code 2.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ServiceError, WorkflowUpdateFailedError } from '@temporalio/client';
import { readSettings, type Settings } from '../config/settings';
import type { TurnResult } from '../conversation/types';
import { runChat } from './chat';
import { login } from './login';
import { cancelTurn, endConversation, history, setBudget, setContextStrategy, setThinking, listConversations, startConversation, status } from './commands';
import { LISTED_STATES } from './conversation-listing';
import { renderListing } from './render-listing';
import { renderStatus } from './render-status';
import { conversationToolCatalogue, renderCatalogue, toolCatalogue } from './tool-catalogue';
import { serverReport } from './server-report';
import { renderServers } from './render-servers';
import { runCodecServer } from './codec-server-command';
import { connectClient } from './connect';
import type { ConversationOptionsInput } from './conversation-options';
import { parseContextStrategy } from '../context/strategy-spec';
import type { ContextStrategy } from '../context/context-strategy';
import { parseThinking, thinkingProblem, type Thinking } from '../conversation/thinking';
import { budgetProblem, type Budget } from '../conversation/budget';
import { isToolSearchMode, TOOL_SEARCH_MODES } from '../claude/tool-search';
import { parseServerTools, type ServerToolSpec } from '../claude/server-tools';
import { renderHistory } from './render-history';
import { FOLLOW_FLAGS, followChoice, sendLive } from './live-turn';
import { approveToolCalls, denyToolCalls, listPendingApprovals, renderApprovalAnswer, renderPendingApprovals, turnOrApproval, waitingNotice } from './approvals';
import { respondToInput, type InputResponse } from './input-requests';
import { renderInputAnswer } from './render-inputs';
import { waitingInputAttributeRegistered } from './progress-attributes';
import { WAITING_INPUT_ATTRIBUTE } from '../workflows/progress-attributes';
import { promptListing, readResource, readTurnContent, renderPrompts, renderResourceContents, renderResources, resourceListing } from './resources';
import type { TurnContent } from '../conversation/turn-content';
import { currentTracing, installTracing } from '../telemetry/tracing';
import type { LiveChannel } from '../live/live-channel';
import { liveTextLine } from '../live/live-url';
import { openLiveChannel } from '../live/redis-live-channel';

/** Thrown for wrong usage: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

/** The usage text. */
export const USAGE = `usage:
  mcp-host start [--id ID] [--system TEXT] [--model M] [--max-tokens N] [--max-iterations N]
                [--context keep_all|last_turns:N|placeholder_tool_results:N|summarize:N|compact[:TRIGGER]|
                           clear_tool_uses:N[:TRIGGER]] [--no-cache]
                [--thinking off|adaptive|adaptive:EFFORT|BUDGET] [--tool-search on|off|auto]
                [--budget-usd N] [--budget-tokens N]
                [--server-tools none|web_search[:N],web_fetch[:N],code_execution]
                [--root URI|PATH]… [--input-timeout SECONDS] [--attach SERVER:URI]… [--prompt SERVER/NAME [--arg K=V]…]
                [--wait] MESSAGE
                                             (--context compact: the API compacts past TRIGGER input tokens (≥ 50000,
                                              its default 150000); clear_tool_uses: it clears older tool results
                                              past TRIGGER (default 100000), keeping the last N tool uses; both beta;
                                              --thinking: Claude's thinking, adaptive (EFFORT: low|medium|high|
                                              xhigh|max) or extended with a token BUDGET ≥ 1024 below --max-tokens
                                              (when unset, --max-tokens makes room for it);
                                              --tool-search: tools deferred beside the API's tool search tool,
                                              auto (default) once they pass 10% of the context window;
                                              --server-tools: Claude's server tools, run by the API (N: at most N
                                              uses per Claude call; default MCP_HOST_SERVER_TOOLS, else none);
                                              --root: roots offered to servers beside mcp.json's; --input-timeout:
                                              a server's request for input is declined by itself after that long;
                                              --attach: a resource goes into the message; --prompt: a server's prompt
                                              is the turn, MESSAGE may then be empty; both read MCP_CONFIG's servers)
  mcp-host send ID MESSAGE [--follow|--no-follow] [--attach SERVER:URI]… [--prompt SERVER/NAME [--arg K=V]…]
                                             (tool calls and answer live on a terminal; --follow: progress on stderr
                                              without one; exit code 3: the turn waits for a tool approval or a
                                              server's request for input, see approve/deny/respond)
  mcp-host history ID [--json]
  mcp-host status ID [--json]
  mcp-host end ID
  mcp-host context ID SPEC                   (keep_all|last_turns:N|placeholder_tool_results:N|summarize:N|
                                              compact[:TRIGGER]|clear_tool_uses:N[:TRIGGER], from the next Claude call)
  mcp-host thinking ID off|adaptive|adaptive:EFFORT|BUDGET                          (from the next turn)
  mcp-host budget ID [--usd N] [--tokens N] | --none   (the spending limit, from the next Claude call; a turn
                                              stopped budget_exceeded goes on with the next one once raised)
  mcp-host cancel ID                         (cancels the running turn only; the conversation goes on)
  mcp-host pending [--limit N] [--json]      (conversations whose turn waits for a tool approval or for a server's
                                              request for input, with the calls and requests)
  mcp-host approve ID [TOOL_USE_ID…]         (all waiting calls of ID when none are named)
  mcp-host deny ID [TOOL_USE_ID…] [--reason TEXT]
  mcp-host respond ID REQUEST_ID --json CONTENT|--accept|--decline|--cancel
                                             (answers a server's request for input: --json accepts a form with
                                              that JSON object; --accept with nothing: a URL visited, a completion
                                              allowed, a form whose fields all have defaults)
  mcp-host chat [--id ID] [--system TEXT] [--model M] [--context SPEC] [--no-cache] [--thinking SPEC] [--root URI|PATH]…
                [--input-timeout S] [--tool-search on|off|auto] [--server-tools none|NAME[:N],…]
                [--budget-usd N] [--budget-tokens N]
  mcp-host login SERVER [--port N]           (OAuth login to an HTTP server of MCP_CONFIG, for every worker;
                                              tokens in MCP_HOST_OAUTH_STORE or ~/.config/durable-mcp-host/)
  mcp-host list [--state idle|running|ended] [--limit N] [--json]
  mcp-host tools [--json] [--verbose]        (the catalogue a worker with MCP_CONFIG offers)
  mcp-host tools ID [--json]                 (the catalogue of one conversation, as it holds it)
  mcp-host resources [SERVER] [--json]       (the resources and resource templates of MCP_CONFIG's servers)
  mcp-host read SERVER URI [--json]          (one resource: its text, or with --json its contents as sent)
  mcp-host prompts [--json]                  (the prompts of MCP_CONFIG's servers with their arguments; NAME* required)
  mcp-host servers [--json] [--verbose]      (each server of MCP_CONFIG: transport, protocol, capabilities, counts,
                                              auth, health; exit code 1 when any is failing)
  mcp-host codec-server [--port N] [--host ADDR] [--web-ui-origin URL]…
                                             (decrypts payloads for the Web UI and temporal CLI: docs/encryption.md)
environment: MCP_CONFIG, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE,
  TEMPORAL_CONFIG_FILE (read as the temporal CLI reads them), MCP_HOST_TASK_QUEUE, CLAUDE_MODEL,
  MCP_HOST_ENCRYPTION_KEY, MCP_HOST_ENCRYPTION_KEY_ID, MCP_HOST_ENCRYPTION_OLD_KEYS (payload encryption),
  MCP_HOST_PAYLOAD_DIR or MCP_HOST_PAYLOAD_STORE=s3://bucket/prefix, MCP_HOST_PAYLOAD_S3_ENDPOINT, AWS_REGION
  (the payload store, as the workers have it; AWS credentials from the AWS SDK's standard chain),
  MCP_HOST_LIVE_URL (redis://…: send and chat read the answer from the workers' live channel)`;

type Out = (text: string) => void;

/** `send`'s exit code when its turn waits for a tool approval (mcp.json `approval: "ask"`). */
export const APPROVAL_EXIT_CODE = 3;

function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

/**
 * `respond`'s answer from its flags: exactly one of `--json CONTENT` (accept with that JSON object),
 * `--accept` (accept with no content), `--decline`, `--cancel`.
 */
export function inputResponseFlags(values: { json?: string | undefined; accept?: boolean | undefined; decline?: boolean | undefined; cancel?: boolean | undefined }): InputResponse {
  const given = [values.json !== undefined, values.accept === true, values.decline === true, values.cancel === true].filter(Boolean).length;
  if (given !== 1) throw new UsageError(`respond takes exactly one of --json CONTENT, --accept, --decline, --cancel (got ${given})`);
  if (values.decline === true) return { action: 'decline' };
  if (values.cancel === true) return { action: 'cancel' };
  if (values.json === undefined) return { action: 'accept' };
  let content: unknown;
  try {
    content = JSON.parse(values.json);
  } catch (e) {
    throw new UsageError(`--json is not valid JSON (${e instanceof Error ? e.message : String(e)}): ${values.json}`);
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw new UsageError(`--json must be a JSON object of the form's fields, like {"name":"Ada"}, not ${values.json}`);
  }
  return { action: 'accept', content: content as Record<string, unknown> };
}

function exactly(positionals: string[], names: string[]): string[] {
  if (positionals.length !== names.length) {
    throw new UsageError(`expected ${names.join(' ')}, got ${positionals.length} argument(s)`);
  }
  return positionals;
}

/** Prints a turn's answer; a turn that did not complete says why on stderr. Returns the exit code. */
function printTurn(result: TurnResult, out: Out, err: Out): number {
  if (result.text) out(result.text);
  if (result.status !== 'completed') {
    err(`[turn ${result.turnId} ended: ${result.status}${result.error ? ` — ${result.error}` : ''}]`);
  }
  return result.status === 'failed' ? 1 : 0;
}

const CONVERSATION_FLAGS = {
  id: { type: 'string' },
  system: { type: 'string' },
  model: { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-iterations': { type: 'string' },
  context: { type: 'string' },
  'no-cache': { type: 'boolean' },
  thinking: { type: 'string' },
  'tool-search': { type: 'string' },
  'server-tools': { type: 'string' },
  'budget-usd': { type: 'string' },
  'budget-tokens': { type: 'string' },
  root: { type: 'string', multiple: true },
  'input-timeout': { type: 'string' },
} as const;

/** What a turn carries beside its text (`start`, `send`). */
const TURN_CONTENT_FLAGS = {
  attach: { type: 'string', multiple: true },
  prompt: { type: 'string' },
  arg: { type: 'string', multiple: true },
} as const;

/** The turn's attachments and prompt, read from MCP_CONFIG's servers (undefined when it has neither). */
async function turnContentFlags(values: { attach?: string[] | undefined; prompt?: string | undefined; arg?: string[] | undefined }, settings: Settings): Promise<TurnContent | undefined> {
  return readTurnContent(settings.mcpConfigPath, {
    ...(values.attach !== undefined ? { attach: values.attach } : {}),
    ...(values.prompt !== undefined ? { prompt: values.prompt } : {}),
    ...(values.arg !== undefined ? { args: values.arg } : {}),
  });
}

/** The MESSAGE positional: required, except that a `--prompt` turn may go without one. */
function messageOf(positionals: string[], names: string[], prompt: boolean): string[] {
  if (prompt && positionals.length === names.length - 1) return [...positionals, ''];
  return exactly(positionals, names);
}

/** The conversation options the shared flags set. */
function conversationFlags(values: {
  model?: string | undefined;
  system?: string | undefined;
  'max-tokens'?: string | undefined;
  'max-iterations'?: string | undefined;
  context?: string | undefined;
  'no-cache'?: boolean | undefined;
  thinking?: string | undefined;
  'tool-search'?: string | undefined;
  'server-tools'?: string | undefined;
  'budget-usd'?: string | undefined;
  'budget-tokens'?: string | undefined;
  root?: string[] | undefined;
  'input-timeout'?: string | undefined;
}): ConversationOptionsInput {
  const budget = budgetFlags(values['budget-usd'], values['budget-tokens']);
  const maxTokens = positiveInt('max-tokens', values['max-tokens']);
  const maxIterations = positiveInt('max-iterations', values['max-iterations']);
  const inputTimeoutSeconds = positiveInt('input-timeout', values['input-timeout']);
  const inputTimeoutMs = inputTimeoutSeconds !== undefined ? inputTimeoutSeconds * 1000 : undefined;
  let context: ContextStrategy | undefined;
  try {
    context = values.context !== undefined ? parseContextStrategy(values.context) : undefined;
  } catch (e) {
    throw new UsageError(`--context: ${e instanceof Error ? e.message : String(e)}`);
  }
  const thinking = values.thinking !== undefined ? thinkingFlag(values.thinking) : null;
  // A budget the API would refuse with the --max-tokens given: said before anything is started.
  const refused = maxTokens !== undefined ? thinkingProblem(thinking, maxTokens) : undefined;
  if (refused !== undefined) throw new UsageError(`--thinking: ${refused}`);
  const toolSearch = values['tool-search'];
  if (toolSearch !== undefined && !isToolSearchMode(toolSearch)) {
    throw new UsageError(`--tool-search: must be one of ${TOOL_SEARCH_MODES.join(', ')}, not ${JSON.stringify(toolSearch)}`);
  }
  let serverTools: ServerToolSpec[] | undefined;
  try {
    serverTools = values['server-tools'] !== undefined ? parseServerTools(values['server-tools']) : undefined;
  } catch (e) {
    throw new UsageError(`--server-tools: ${e instanceof Error ? e.message : String(e)}`);
  }
  return {
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.system !== undefined ? { system: values.system } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(values['no-cache'] === true ? { promptCache: { enabled: false } } : {}),
    ...(values.root !== undefined && values.root.length > 0 ? { roots: values.root.map(rootUri) } : {}),
    ...(inputTimeoutMs !== undefined ? { inputTimeoutMs } : {}),
    ...(thinking !== null ? { thinking } : {}),
    ...(toolSearch !== undefined ? { toolSearch } : {}),
    // `none` is kept as `[]`: it overrides MCP_HOST_SERVER_TOOLS.
    ...(serverTools !== undefined ? { serverTools } : {}),
    ...(budget !== undefined ? { budget } : {}),
  };
}

/** `--budget-usd N` and `--budget-tokens N` (on start/chat, and `budget ID --usd N --tokens N`): undefined when neither. */
function budgetFlags(usd: string | undefined, tokens: string | undefined, names: [string, string] = ['--budget-usd', '--budget-tokens']): Budget | undefined {
  if (usd === undefined && tokens === undefined) return undefined;
  const budget: Budget = {
    ...(usd !== undefined ? { usd: Number(usd) } : {}),
    ...(tokens !== undefined ? { tokens: Number(tokens) } : {}),
  };
  const problem = budgetProblem(budget);
  if (problem !== undefined) throw new UsageError(`${usd !== undefined && !(Number(usd) > 0) ? names[0] : names[1]}: ${problem}`);
  return budget;
}

/** A `--thinking` (or `thinking ID SPEC`) value: null for `off`. */
function thinkingFlag(spec: string): Thinking | null {
  try {
    return parseThinking(spec);
  } catch (e) {
    throw new UsageError(`--thinking: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A `--root`: a URI as given, or a local path made a `file://` URI. */
function rootUri(value: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return value;
  if (value.trim() === '') throw new UsageError('--root: expected a URI or a path');
  return pathToFileURL(path.resolve(value)).href;
}

/** How a CLI invocation ends. */
export interface CliRunOptions {
  /**
   * Close the Temporal connection before returning (default true, for callers that go on running).
   * `bin/mcp-host.js` exits the process instead: a call the SDK is still retrying (a status query or
   * a follower's poll abandoned when the answer came while the server was restarting) would fire on
   * a closed connection and end the process with "Channel has been shut down".
   */
  closeConnection?: boolean;
}

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(
  argv: string[],
  given?: Settings,
  out: Out = console.log,
  err: Out = console.error,
  options: CliRunOptions = {},
): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    out(USAGE);
    return verb === undefined ? 2 : 0;
  }
  const parse = <T extends NonNullable<ParseArgsConfig['options']>>(options: T) =>
    parseArgs({ args: rest, options, allowPositionals: true, strict: true } as const);
  // Read on first use, after `--help`, so that help works whatever the environment holds; a bad
  // setting is then reported like any other error, in one line.
  let settings = given;
  const config = (): Settings => (settings ??= readSettings());
  let connected: Awaited<ReturnType<typeof connectClient>> | undefined;
  const client = async () => {
    // The OTEL_* variables may turn traces on: each start, send and update is then a span (src/telemetry).
    installTracing();
    connected ??= await connectClient(config());
    return connected.client;
  };
  // The live channel (MCP_HOST_LIVE_URL), opened by the verbs that follow a turn.
  let liveChannel: LiveChannel | undefined;
  const live = (): LiveChannel | undefined => {
    const url = config().live;
    if (url) liveChannel ??= openLiveChannel(url, { connectionName: 'mcp-host-cli' });
    return liveChannel;
  };
  try {
    switch (verb) {
      case 'start': {
        const { values, positionals } = parse({ ...CONVERSATION_FLAGS, ...TURN_CONTENT_FLAGS, wait: { type: 'boolean' } });
        const [message] = messageOf(positionals, ['MESSAGE'], values.prompt !== undefined);
        const conversation = conversationFlags(values);
        const content = await turnContentFlags(values, config());
        const started = await startConversation({ client: await client(), taskQueue: config().taskQueue }, message ?? '', {
          ...(values.id !== undefined ? { id: values.id } : {}),
          ...(content !== undefined ? { content } : {}),
          wait: values.wait === true,
          defaultModel: config().model,
          defaultServerTools: config().serverTools,
          conversation,
        });
        out(started.id);
        return started.result ? printTurn(started.result, out, err) : 0;
      }
      case 'send': {
        const { values, positionals } = parse({ ...FOLLOW_FLAGS, ...TURN_CONTENT_FLAGS });
        const [id, message] = messageOf(positionals, ['ID', 'MESSAGE'], values.prompt !== undefined);
        const content = await turnContentFlags(values, config());
        // On a terminal (or with --follow) the tool calls and the answer show as they happen.
        const follow = followChoice(values);
        // The live channel only where the turn is shown live (a terminal, or --follow).
        const following = follow === true || (follow === undefined && process.stdout.isTTY === true);
        const sent = sendLive(await client(), id ?? '', message ?? '', follow, content, following ? live() : undefined);
        // A turn waiting for a tool approval may wait for days: say so and how to go on, exit 3.
        const outcome = await turnOrApproval(await client(), id ?? '', sent.turn);
        if (outcome.kind === 'answer') return printTurn(sent.answered() ? { ...outcome.result, text: '' } : outcome.result, out, err);
        err(waitingNotice(id ?? '', outcome.pending, outcome.inputs));
        return APPROVAL_EXIT_CODE;
      }
      case 'pending': {
        const { values, positionals } = parse({ limit: { type: 'string' }, json: { type: 'boolean' } });
        exactly(positionals, []);
        const limit = positiveInt('limit', values.limit) ?? 50;
        const rows = await listPendingApprovals(await client(), { taskQueue: config().taskQueue, limit });
        // Without the optional attribute, a conversation waiting for input alone is not found: say so.
        const inputs = await waitingInputAttributeRegistered(await client());
        if (!inputs) {
          err(`mcp-host: the namespace has no ${WAITING_INPUT_ATTRIBUTE.name} search attribute: conversations waiting only for a server's input are not listed (register it: docs/cluster.md#search-attributes)`);
        }
        out(values.json ? JSON.stringify(rows, null, 2) : renderPendingApprovals(rows, { inputs }));
        return 0;
      }
      case 'approve': {
        const { positionals } = parse({});
        const [id, ...toolUseIds] = positionals;
        if (id === undefined) throw new UsageError('expected ID [TOOL_USE_ID…]');
        out(renderApprovalAnswer('approved', await approveToolCalls(await client(), id, toolUseIds)));
        return 0;
      }
      case 'deny': {
        const { values, positionals } = parse({ reason: { type: 'string' } });
        const [id, ...toolUseIds] = positionals;
        if (id === undefined) throw new UsageError('expected ID [TOOL_USE_ID…] [--reason TEXT]');
        out(renderApprovalAnswer('denied', await denyToolCalls(await client(), id, toolUseIds, values.reason)));
        return 0;
      }
      case 'respond': {
        const { values, positionals } = parse({ json: { type: 'string' }, accept: { type: 'boolean' }, decline: { type: 'boolean' }, cancel: { type: 'boolean' } });
        const [id, requestId] = exactly(positionals, ['ID', 'REQUEST_ID']);
        const response = inputResponseFlags(values);
        out(renderInputAnswer(response.action, await respondToInput(await client(), id ?? '', { requestId: requestId ?? '', ...response })));
        return 0;
      }
      case 'history': {
        const { values, positionals } = parse({ json: { type: 'boolean' } });
        const [id] = exactly(positionals, ['ID']);
        const messages = await history(await client(), id ?? '');
        out(values.json ? JSON.stringify(messages, null, 2) : renderHistory(messages));
        return 0;
      }
      case 'status': {
        const { values, positionals } = parse({ json: { type: 'boolean' } });
        const [id] = exactly(positionals, ['ID']);
        const s = await status(await client(), id ?? '');
        // The human form says too which live path this client follows turns by.
        out(values.json ? JSON.stringify(s, null, 2) : `${renderStatus(s)}\n${liveTextLine(config().live)}`);
        return 0;
      }
      case 'context': {
        const [id, spec] = exactly(parse({}).positionals, ['ID', 'SPEC']);
        let strategy: ContextStrategy;
        try {
          strategy = parseContextStrategy(spec ?? '');
        } catch (e) {
          throw new UsageError(e instanceof Error ? e.message : String(e));
        }
        out(`context strategy of ${id ?? ''}: ${await setContextStrategy(await client(), id ?? '', strategy)}`);
        return 0;
      }
      case 'thinking': {
        const [id, spec] = exactly(parse({}).positionals, ['ID', 'SPEC']);
        const thinking = thinkingFlag(spec ?? '');
        out(`thinking of ${id ?? ''}: ${await setThinking(await client(), id ?? '', thinking)} (from its next turn)`);
        return 0;
      }
      case 'budget': {
        const parsed = parse({ usd: { type: 'string' }, tokens: { type: 'string' }, none: { type: 'boolean' } });
        const [id] = exactly(parsed.positionals, ['ID']);
        const budget = parsed.values.none === true ? null : budgetFlags(parsed.values.usd, parsed.values.tokens, ['--usd', '--tokens']);
        if (budget === undefined) throw new UsageError('budget: give --usd N, --tokens N (or both), or --none');
        out(`budget of ${id ?? ''}: ${await setBudget(await client(), id ?? '', budget)} (from its next Claude call)`);
        return 0;
      }
      case 'cancel': {
        const [id] = exactly(parse({}).positionals, ['ID']);
        const cancelled = await cancelTurn(await client(), id ?? '');
        out(cancelled ? `turn ${cancelled.turnId} ended: ${cancelled.status}` : 'no turn was running');
        return 0;
      }
      case 'end': {
        const [id] = exactly(parse({}).positionals, ['ID']);
        const summary = await endConversation(await client(), id ?? '');
        out(`ended ${id ?? ''}: ${summary.status.turnsCompleted} turns, ${summary.messages} messages, ${summary.status.modelCalls} model calls, ${summary.status.toolCalls} tool calls`);
        return 0;
      }
      case 'list': {
        const { values, positionals } = parse({ state: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } });
        exactly(positionals, []);
        const state = values.state;
        if (state !== undefined && !(LISTED_STATES as readonly string[]).includes(state)) {
          throw new UsageError(`--state must be one of ${LISTED_STATES.join(', ')}, got "${state}"`);
        }
        const limit = positiveInt('limit', values.limit) ?? 50;
        const rows = await listConversations(await client(), { taskQueue: config().taskQueue, limit, ...(state !== undefined ? { state } : {}) });
        out(values.json ? JSON.stringify(rows, null, 2) : renderListing(rows));
        return 0;
      }
      case 'tools': {
        const { values, positionals } = parse({ json: { type: 'boolean' }, verbose: { type: 'boolean' } });
        if (positionals.length === 1) {
          const [id] = positionals;
          const rows = await conversationToolCatalogue(await client(), id ?? '');
          out(values.json ? JSON.stringify(rows, null, 2) : renderCatalogue(rows));
          return 0;
        }
        exactly(positionals, []);
        // A server left out is said on stderr, one line each, whatever the output format.
        const rows = await toolCatalogue(config().mcpConfigPath, values.verbose === true ? err : undefined, ({ server, reason }) =>
          err(`mcp-host: server "${server}" is unavailable, its tools are not listed: ${reason}`),
        );
        out(values.json ? JSON.stringify(rows, null, 2) : renderCatalogue(rows));
        return 0;
      }
      case 'resources': {
        const { values, positionals } = parse({ json: { type: 'boolean' } });
        if (positionals.length > 1) throw new UsageError(`expected [SERVER], got ${positionals.length} arguments`);
        const listing = await resourceListing(config().mcpConfigPath, positionals[0]);
        for (const { server, reason } of listing.unlisted) err(`mcp-host: server "${server}" is unavailable, its resources are not listed: ${reason}`);
        out(values.json ? JSON.stringify(listing.listed, null, 2) : renderResources(listing));
        return 0;
      }
      case 'read': {
        const { values, positionals } = parse({ json: { type: 'boolean' } });
        const [server, uri] = exactly(positionals, ['SERVER', 'URI']);
        const contents = await readResource(config().mcpConfigPath, server ?? '', uri ?? '');
        out(values.json ? JSON.stringify(contents, null, 2) : renderResourceContents(contents));
        return 0;
      }
      case 'prompts': {
        const { values, positionals } = parse({ json: { type: 'boolean' } });
        exactly(positionals, []);
        const listing = await promptListing(config().mcpConfigPath);
        for (const { server, reason } of listing.unlisted) err(`mcp-host: server "${server}" is unavailable, its prompts are not listed: ${reason}`);
        out(values.json ? JSON.stringify(listing.listed, null, 2) : renderPrompts(listing));
        return 0;
      }
      case 'servers': {
        const { values, positionals } = parse({ json: { type: 'boolean' }, verbose: { type: 'boolean' } });
        exactly(positionals, []);
        const rows = await serverReport(config().mcpConfigPath, values.verbose === true ? { log: err } : {});
        out(values.json ? JSON.stringify(rows, null, 2) : `${renderServers(rows)}\n\n${liveTextLine(config().live)}`);
        // Every row is printed either way; the exit code adds whether any server is failing, for scripts.
        return rows.every((row) => row.health === 'connected') ? 0 : 1;
      }
      case 'codec-server': {
        const { values, positionals } = parse({ port: { type: 'string' }, host: { type: 'string' }, 'web-ui-origin': { type: 'string', multiple: true } });
        exactly(positionals, []);
        const port = values.port === '0' ? 0 : positiveInt('port', values.port);
        await runCodecServer({
          out,
          ...(port !== undefined ? { port } : {}),
          ...(values.host !== undefined ? { host: values.host } : {}),
          ...(values['web-ui-origin'] !== undefined ? { webUiOrigins: values['web-ui-origin'] } : {}),
        });
        return 0;
      }
      case 'login': {
        const { values, positionals } = parse({ port: { type: 'string' } });
        const [server] = exactly(positionals, ['SERVER']);
        const port = positiveInt('port', values.port);
        await login({ mcpConfigPath: config().mcpConfigPath, server: server ?? '', ...(port !== undefined ? { port } : {}), out });
        return 0;
      }
      case 'chat': {
        const { values, positionals } = parse(CONVERSATION_FLAGS);
        exactly(positionals, []);
        // Read before connecting, so that a bad flag is a usage error at once.
        const conversation = conversationFlags(values);
        const channel = live();
        return await runChat(await client(), config(), {
          ...(values.id !== undefined ? { id: values.id } : {}),
          conversation,
          ...(channel !== undefined ? { live: channel } : {}),
        });
      }
      default:
        throw new UsageError(`unknown command "${verb}"`);
    }
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
      err(`mcp-host: ${e.message}\n${USAGE}`);
      return 2;
    }
    err(`mcp-host: ${errorLine(e)}`);
    return 1;
  } finally {
    // Spans are sent before the process exits.
    await currentTracing()?.flush().catch(() => undefined);
    await liveChannel?.close();
    if (options.closeConnection !== false) await connected?.close();
  }
}

/**
 * An error as one line. The Temporal client's own errors say only what failed ("Workflow Update
 * failed"); the reason is in their cause (the server's gRPC status, the update's failure), so it
 * is added.
 */
export function errorLine(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  if (!(e instanceof ServiceError || e instanceof WorkflowUpdateFailedError) || !(e.cause instanceof Error)) return e.message;
  const reason = e.cause.message.split('\n')[0] ?? '';
  return reason === '' || e.message.includes(reason) ? e.message : `${e.message}: ${reason}`;
}
