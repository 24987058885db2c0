/**
 * The library's client: conversations by id, over a Temporal client. Every method is one of the
 * CLI's verbs (commands.ts), so the CLI and applications behave the same.
 */
import type { Client } from '@temporalio/client';
import { DEFAULTS, readSettings } from '../config/settings';
import type { ConversationStatus, ConversationSummary, MessageParam, TurnResult } from '../conversation/types';
import {
  cancelTurn,
  endConversation,
  setBudget,
  setContextStrategy,
  setThinking,
  history,
  listConversations,
  postMessage,
  sendMessage,
  startConversation,
  status,
  type ConversationListing,
  type TurnOptions,
} from './commands';
import { promptListing, readResource, readTurnContent, resourceListing, type ServerPrompts, type ServerResources, type TurnContentRequest, type UnlistedServer } from './resources';
import type { TurnContent } from '../conversation/turn-content';
import { connectClient } from './connect';
import type { ConversationOptionsInput } from './conversation-options';
import type { ContextStrategy } from '../context/context-strategy';
import type { Thinking } from '../conversation/thinking';
import type { Budget } from '../conversation/budget';
import type { ServerToolSpec } from '../claude/server-tools';
import { randomUUID } from 'node:crypto';
import type { ConversationEvent } from './conversation-events';
import { followConversation, type Follower, type FollowOptions } from './follow-conversation';
import { sendFollowing } from './follow-turn';
import { approveToolCalls, denyToolCalls, listPendingApprovals, type ApprovalAnswer, type WaitingConversation } from './approvals';
import { respondToInput, type InputResponse, type InputResponseAnswer } from './input-requests';
import type { LiveChannel, LiveFollowing } from '../live/live-channel';
import { openLiveChannel } from '../live/redis-live-channel';

/** Where conversations run and which model they default to. */
export interface ConversationClientOptions {
  /** The workers' task queue (default `MCP_HOST_TASK_QUEUE`, else `mcp-host`). */
  taskQueue?: string;
  /** The model of conversations that name none (default `CLAUDE_MODEL`, else claude-sonnet-4-6). */
  defaultModel?: string;
  /** The `mcp.json` whose servers' resources and prompts a turn may take (default `MCP_CONFIG`, else ./mcp.json). */
  mcpConfigPath?: string;
  /** The server tools of conversations that choose none (default `MCP_HOST_SERVER_TOOLS` with `connect`, else none). */
  defaultServerTools?: ServerToolSpec[];
  /**
   * The live channel `follow` and `send` with `onProgress` read the answer from as the workers
   * publish it (default: with `connect`, the one `MCP_HOST_LIVE_URL` names, else none: heartbeats).
   * One given here stays open on `close`; one `connect` opened is closed by it.
   */
  live?: LiveFollowing;
}

/** How a conversation starts. */
export interface StartOptions extends ConversationOptionsInput, TurnOptions {
  /** The conversation id (the workflow id); default: a new readable one. */
  id?: string;
  /** Wait for the first turn's answer (an update-with-start) instead of returning at once. */
  wait?: boolean;
}

/** How a turn is sent. */
export interface SendOptions extends TurnOptions {
  /** Sees the turn's progress while it runs (tool calls, the answer as it streams): see `follow`. */
  onProgress?: (event: ConversationEvent) => void;
}

/** Conversations of durable-mcp-host workers, by id. */
export class ConversationClient {
  private readonly taskQueue: string;
  private readonly defaultModel: string;
  private readonly mcpConfigPath: string | undefined;
  private readonly defaultServerTools: ServerToolSpec[];
  private readonly live: LiveFollowing | undefined;

  /** Wraps a connected Temporal client; `close` is then the caller's business. */
  constructor(
    readonly client: Client,
    options: ConversationClientOptions = {},
    private readonly onClose: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.taskQueue = options.taskQueue ?? DEFAULTS.taskQueue;
    this.defaultModel = options.defaultModel ?? DEFAULTS.model;
    this.mcpConfigPath = options.mcpConfigPath;
    this.defaultServerTools = options.defaultServerTools ?? [];
    this.live = options.live;
  }

  /**
   * Connects the way the CLI does: TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE / TLS and API key
   * variables or a temporal.toml profile, the task queue and model from the environment, and the
   * live channel `MCP_HOST_LIVE_URL` names (when the options give none).
   */
  static async connect(options: ConversationClientOptions = {}): Promise<ConversationClient> {
    const settings = readSettings();
    const connected = await connectClient(settings);
    const opened: LiveChannel | undefined = options.live === undefined && settings.live ? openLiveChannel(settings.live, { connectionName: 'mcp-host-client' }) : undefined;
    const live = options.live ?? opened;
    return new ConversationClient(
      connected.client,
      {
        taskQueue: options.taskQueue ?? settings.taskQueue,
        defaultModel: options.defaultModel ?? settings.model,
        defaultServerTools: options.defaultServerTools ?? settings.serverTools,
        ...(live !== undefined ? { live } : {}),
      },
      async () => {
        await opened?.close();
        await connected.close();
      },
    );
  }

  /** Starts a conversation with its first message; with `wait`, returns that turn's result too. */
  async start(message: string, options: StartOptions = {}): Promise<{ id: string; result?: TurnResult }> {
    const { id, wait, messageId, content, ...conversation } = options;
    return startConversation({ client: this.client, taskQueue: this.taskQueue }, message, {
      ...(id !== undefined ? { id } : {}),
      ...(content !== undefined ? { content } : {}),
      ...(messageId !== undefined ? { messageId } : {}),
      wait: wait === true,
      conversation,
      defaultModel: this.defaultModel,
      defaultServerTools: this.defaultServerTools,
    });
  }

  /**
   * Sends a user turn and waits for its answer (an update). The turn runs once per message id: to
   * retry a send whose outcome is unknown, pass the same `messageId` (default: a new one per call).
   */
  send(id: string, message: string, options: SendOptions = {}): Promise<TurnResult> {
    const { onProgress, ...turn } = options;
    if (!onProgress) return sendMessage(this.client, id, message, turn);
    const messageId = turn.messageId ?? randomUUID();
    return sendFollowing(this.client, id, messageId, onProgress, () => sendMessage(this.client, id, message, { ...turn, messageId }), {
      ...(this.live !== undefined ? { live: this.live } : {}),
    });
  }

  /** The `mcp.json` of resources and prompts: the option, else `MCP_CONFIG` (else ./mcp.json). */
  private mcpConfig(): string {
    return this.mcpConfigPath ?? readSettings().mcpConfigPath;
  }

  /** The resources and templates of one server of the `mcp.json`, or of every server that has some. */
  resources(server?: string): Promise<{ listed: ServerResources[]; unlisted: UnlistedServer[] }> {
    return resourceListing(this.mcpConfig(), server);
  }

  /** One resource's contents, as the server sent them. */
  readResource(server: string, uri: string): Promise<unknown[]> {
    return readResource(this.mcpConfig(), server, uri);
  }

  /** Every server's prompts with their arguments. */
  prompts(): Promise<{ listed: ServerPrompts[]; unlisted: UnlistedServer[] }> {
    return promptListing(this.mcpConfig());
  }

  /**
   * Reads resources to attach (`SERVER:URI`) and a prompt to run (`SERVER/NAME`, `KEY=VALUE`
   * arguments) into a turn's `content`, for `start`, `send` and `post`. Throws one clear error for an
   * unknown server, URI or prompt, a missing argument or a resource over the cap.
   */
  turnContent(request: TurnContentRequest): Promise<TurnContent | undefined> {
    return readTurnContent(this.mcpConfig(), request);
  }

  /**
   * Follows a conversation from now on: `onEvent` sees each tool call start and end, each Claude
   * call and its answer's text as Claude writes it, and each awaited turn's result, until `stop()`
   * or the conversation's end. Nothing of it is written to the conversation's history: it reads the
   * history as it grows and the running calls' heartbeats, and the live channel when the client has
   * one (README: Live progress).
   */
  follow(id: string, onEvent: (event: ConversationEvent) => void, options: FollowOptions = {}): Follower {
    return followConversation(this.client, id, onEvent, { ...(this.live !== undefined ? { live: this.live } : {}), ...options });
  }

  /** Sends a user turn without waiting (a signal); it runs after the turns before it. Once per `messageId`. */
  post(id: string, message: string, options: TurnOptions = {}): Promise<void> {
    return postMessage(this.client, id, message, options);
  }

  /** The `messages` array exactly as sent to Claude. */
  history(id: string): Promise<MessageParam[]> {
    return history(this.client, id);
  }

  /** Turns, counts, token usage, cost, context state. */
  status(id: string): Promise<ConversationStatus> {
    return status(this.client, id);
  }

  /**
   * Cancels the running turn only (its tool uses are answered, it ends `cancelled`, queued turns
   * run next); resolves with its result once it has ended, or null when no turn was running.
   */
  cancelTurn(id: string): Promise<TurnResult | null> {
    return cancelTurn(this.client, id);
  }

  /** Sets a running conversation's context strategy from its next Claude call on (e.g. after a 400 "prompt is too long"). */
  setContextStrategy(id: string, strategy: ContextStrategy): Promise<string> {
    return setContextStrategy(this.client, id, strategy);
  }

  /**
   * Sets a running conversation's thinking (a budget, adaptive with an effort, or null: off) from
   * its next turn on; resolves with it as a spec (`adaptive:high`, `4096`, `off`). A budget not
   * below the conversation's maxTokens is refused, nothing recorded.
   */
  setThinking(id: string, thinking: Thinking | null): Promise<string> {
    return setThinking(this.client, id, thinking);
  }

  /**
   * Sets the conversation's spending limit (`{usd?, tokens?}`, null: none) from its next Claude
   * call on; raising it lets a conversation stopped `budget_exceeded` go on. Resolves with it in
   * words (`$0.5, 20000 tokens`). A malformed one is refused, nothing recorded.
   */
  setBudget(id: string, budget: Budget | null): Promise<string> {
    return setBudget(this.client, id, budget);
  }

  /**
   * Approves tool calls waiting for approval (mcp.json `approval: "ask"`), by `tool_use` id, or every
   * waiting one when none are named; they run at once. Refused when nothing waits or an id is unknown.
   */
  approve(id: string, toolUseIds: string[] = []): Promise<ApprovalAnswer> {
    return approveToolCalls(this.client, id, toolUseIds);
  }

  /** Denies waiting tool calls (all when none are named): they never run, and Claude reads that the user declined, with `reason`. */
  deny(id: string, options: { toolUseIds?: string[]; reason?: string } = {}): Promise<ApprovalAnswer> {
    return denyToolCalls(this.client, id, options.toolUseIds ?? [], options.reason);
  }

  /**
   * Answers a request a server made in the middle of a tool call (a form, a URL visit, leave to run
   * a completion), by its id (`in_…`, from `status` or `pending`): accept (a form's values as
   * `content`; none for a URL visited or a completion allowed), decline or cancel. Refused, nothing
   * recorded, for an unknown or already answered request, or content the form's schema refuses.
   */
  respond(id: string, requestId: string, response: InputResponse): Promise<InputResponseAnswer> {
    return respondToInput(this.client, id, { requestId, ...response });
  }

  /**
   * This task queue's conversations whose turn waits for approval or for input, each with its
   * waiting calls and requests (from visibility; input-only waits where the namespace has the
   * `McpHostWaitingInput` search attribute).
   */
  pending(options: { limit?: number } = {}): Promise<WaitingConversation[]> {
    return listPendingApprovals(this.client, { taskQueue: this.taskQueue, ...options });
  }

  /** Ends a conversation once its pending turns are done; resolves with its summary. */
  end(id: string): Promise<ConversationSummary> {
    return endConversation(this.client, id);
  }

  /** This task queue's conversations, newest first (at most `limit`, default 100). */
  list(options: { limit?: number } = {}): Promise<ConversationListing[]> {
    return listConversations(this.client, { taskQueue: this.taskQueue, ...options });
  }

  /** Closes the connection `connect` opened. */
  close(): Promise<void> {
    return this.onClose();
  }
}
