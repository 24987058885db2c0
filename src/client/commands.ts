/**
 * The CLI's verbs as library functions: each takes a connected client and returns data.
 */
import { WithStartWorkflowOperation, WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { randomBytes, randomUUID } from 'node:crypto';
import type { ConversationStatus, ConversationSummary, MessageParam, TurnResult } from '../conversation/types';
import { conversationWorkflow } from '../workflows';
import { cancelTurnUpdate, endSignal, sendMessageUpdate, setBudgetUpdate, setContextStrategyUpdate, setThinkingUpdate, statusQuery, userMessageSignal } from '../workflows/definitions';
import type { ContextStrategy } from '../context/context-strategy';
import type { Thinking } from '../conversation/thinking';
import type { Budget } from '../conversation/budget';
import { conversationOptions, WORKFLOW_TASK_TIMEOUT_MS, type ConversationOptionsInput } from './conversation-options';
import type { ServerToolSpec } from '../claude/server-tools';
import { readHistory } from './read-history';
import { userMessageProblem } from '../conversation/user-message-problem';
import { hasTurnContent, turnContentLabel, turnContentProblem, type TurnContent } from '../conversation/turn-content';
import { initialProgressAttributes, progressAttributesRegistered, waitingInputAttributeRegistered } from './progress-attributes';
import { startMetadata } from './start-metadata';
import { sendTurnWithRetry } from './turn-send-retry';
import { listedProgress, listQuery, type ListedProgress } from './conversation-listing';

/** Refuses a turn that cannot be sent (empty, or too large for Temporal), before anything is sent. */
function checkUserMessage(message: string, content?: TurnContent): void {
  const problem = hasTurnContent(content) ? turnContentProblem(message, content) : userMessageProblem(message);
  if (problem !== undefined) throw new Error(problem);
}

/** What a turn carries beside its text: resources attached, a prompt run as it (src/client/resources.ts reads them). */
export interface TurnOptions extends MessageIdentity {
  content?: TurnContent;
}

/** The update's arguments and the signal's meta for a turn of `message` with `content`. */
function turnArgs(message: string, content: TurnContent | undefined): [string] | [string, TurnContent] {
  return hasTurnContent(content) ? [message, content] : [message];
}

/**
 * A user turn's identity. The conversation takes each message id once: a send repeated with the
 * same id (the SDK's own retries always reuse it; a caller may pass its own to retry across
 * processes) gets the same turn's answer, even after the conversation continued as new.
 */
export interface MessageIdentity {
  /** Default: a new random id per call. */
  messageId?: string;
}

/** Where conversations run. */
export interface Target {
  client: Client;
  taskQueue: string;
}

/** A new conversation id: readable, sortable by time, unique enough. */
export function newConversationId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `conversation-${stamp}-${randomBytes(3).toString('hex')}`;
}

/** The handle of conversation `id`, after checking it exists (one clear error when it does not). */
export async function existing(client: Client, id: string): Promise<WorkflowHandle<typeof conversationWorkflow>> {
  const handle = client.workflow.getHandle<typeof conversationWorkflow>(id);
  try {
    await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new Error(`no conversation with id "${id}"`);
    throw err;
  }
  return handle;
}

/**
 * Runs `operation` on conversation `id` without first asking whether it exists: one request fewer
 * per command (at 200 conversations a describe per `end` was the host's largest extra load on the
 * server, issue 11). Only when the server answers NOT_FOUND does a describe tell an unknown id (the
 * same clear error as {@link existing}) from a conversation that has ended, which `ifEnded` answers
 * (without it, the operation's own error stands: "workflow execution already completed").
 */
async function onConversation<T>(
  client: Client,
  id: string,
  operation: (handle: WorkflowHandle<typeof conversationWorkflow>) => Promise<T>,
  ifEnded?: (handle: WorkflowHandle<typeof conversationWorkflow>) => Promise<T>,
): Promise<T> {
  const handle = client.workflow.getHandle<typeof conversationWorkflow>(id);
  try {
    return await operation(handle);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    await existing(client, id);
    if (ifEnded) return ifEnded(handle);
    throw err;
  }
}

/** Starts a conversation with its first message; with `wait`, returns that turn's result too. */
export async function startConversation(
  target: Target,
  message: string,
  options: { id?: string; wait?: boolean; conversation: ConversationOptionsInput; defaultModel: string; defaultServerTools?: readonly ServerToolSpec[] } & TurnOptions,
): Promise<{ id: string; result?: TurnResult }> {
  checkUserMessage(message, options.content);
  const args = turnArgs(message, options.content);
  const meta = { messageId: options.messageId ?? '', ...(hasTurnContent(options.content) ? { content: options.content } : {}) };
  const messageId = options.messageId ?? randomUUID();
  meta.messageId = messageId;
  const id = options.id ?? newConversationId();
  const conversation = conversationOptions(options.conversation, options.defaultModel, options.defaultServerTools);
  const workflowOptions = {
    taskQueue: target.taskQueue,
    workflowId: id,
    // A worker that dies holding a workflow task holds up its conversation this long: see
    // WORKFLOW_TASK_TIMEOUT_MS, with the replay bound it relies on.
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT_MS,
    args: [{ options: conversation }] as const,
    // Which start made this conversation: a start whose answer was lost (the server restarted after
    // taking it) and that the SDK or we send again finds the conversation already there, and this
    // tells "ours, go on" from "someone else's id" (startedByUs below).
    memo: { [START_MESSAGE_MEMO]: messageId },
    // What the Web UI shows of it (src/client/start-metadata.ts), and the search attributes it
    // keeps current where the namespace has them registered.
    // A turn with attachments or a prompt says so (a prompt turn may have no text of its own).
    ...startMetadata([message, turnContentLabel(options.content)].filter((part) => part.trim() !== '').join(' '), conversation),
    ...((await progressAttributesRegistered(target.client))
      ? { typedSearchAttributes: initialProgressAttributes(await waitingInputAttributeRegistered(target.client)) }
      : {}),
  };
  try {
    if (options.wait) {
      // Sent again with the same update id while the server lost or could not take it; a retry
      // joins the conversation the first attempt may have started (src/client/turn-send-retry.ts).
      const result = await sendTurnWithRetry((attempt) =>
        target.client.workflow.executeUpdateWithStart(sendMessageUpdate, {
          args,
          updateId: messageId,
          startWorkflowOperation: new WithStartWorkflowOperation(conversationWorkflow, {
            ...workflowOptions,
            args: [...workflowOptions.args],
            workflowIdConflictPolicy: attempt === 1 ? 'FAIL' : 'USE_EXISTING',
          }),
        }),
      );
      return { id, result };
    }
    const handle = await target.client.workflow.start(conversationWorkflow, { ...workflowOptions, args: [...workflowOptions.args] });
    await handle.signal(userMessageSignal, message, meta);
    return { id };
  } catch (err) {
    if (!(err instanceof Error && /already (started|exists)/i.test(err.message))) throw err;
    if (!(await startedByUs(target.client, id, messageId))) {
      throw new Error(`a conversation with id "${id}" already exists; use \`mcp-host send ${id} …\``);
    }
    // This start made it; its first turn goes in with the same id (taken once by the workflow).
    const handle = target.client.workflow.getHandle<typeof conversationWorkflow>(id);
    if (options.wait) {
      return { id, result: await sendTurnWithRetry(() => handle.executeUpdate(sendMessageUpdate, { args, updateId: messageId })) };
    }
    await handle.signal(userMessageSignal, message, meta);
    return { id };
  }
}

/** The memo key holding the message id of the start that made a conversation. */
const START_MESSAGE_MEMO = 'startMessageId';

/** Whether conversation `id` was made by the start of first message `messageId`. */
async function startedByUs(client: Client, id: string, messageId: string): Promise<boolean> {
  try {
    const { memo } = await client.workflow.getHandle(id).describe();
    return memo?.[START_MESSAGE_MEMO] === messageId;
  } catch {
    return false;
  }
}

/** Sends a user turn and waits for its answer (an update). */
export async function sendMessage(client: Client, id: string, message: string, options: TurnOptions = {}): Promise<TurnResult> {
  checkUserMessage(message, options.content);
  const updateId = options.messageId ?? randomUUID();
  const args = turnArgs(message, options.content);
  return onConversation(client, id, (handle) => sendTurnWithRetry(() => handle.executeUpdate(sendMessageUpdate, { args, updateId })));
}

/** Sends a user turn without waiting for it (a signal); turns queue and run in order. */
export async function postMessage(client: Client, id: string, message: string, options: TurnOptions = {}): Promise<void> {
  checkUserMessage(message, options.content);
  const messageId = options.messageId ?? randomUUID();
  await onConversation(client, id, (handle) => handle.signal(userMessageSignal, message, { messageId, ...(hasTurnContent(options.content) ? { content: options.content } : {}) }));
}

/** A conversation as the server's visibility store lists it, with its progress (src/client/conversation-listing.ts). */
export interface ConversationListing extends ListedProgress {
  id: string;
  runId: string;
  /** The workflow execution's status: RUNNING while it takes turns, COMPLETED once ended, … */
  status: string;
  startTime: Date;
  closeTime?: Date;
  taskQueue: string;
}

/**
 * Conversations, newest first, from visibility (what the Web UI's workflow list shows), one row per
 * conversation. `state` filters on the `McpHostState` search attribute, which the namespace must have.
 */
export async function listConversations(
  client: Client,
  options: { taskQueue?: string; limit?: number; state?: string } = {},
): Promise<ConversationListing[]> {
  const limit = options.limit ?? 100;
  if (options.state !== undefined && !(await progressAttributesRegistered(client))) {
    throw new Error(`cannot filter by state: the namespace has no McpHostState search attribute (register it: docs/cluster.md#search-attributes)`);
  }
  const query = listQuery(conversationWorkflow.name, options);
  const found: ConversationListing[] = [];
  for await (const execution of client.workflow.list({ query, pageSize: Math.min(limit, 1000) })) {
    found.push({
      id: execution.workflowId,
      runId: execution.runId,
      status: execution.status.name,
      startTime: execution.startTime,
      ...(execution.closeTime !== undefined ? { closeTime: execution.closeTime } : {}),
      taskQueue: execution.taskQueue,
      ...listedProgress(execution),
    });
    if (found.length >= limit) break;
  }
  return found;
}

/** The `messages` array as sent to Claude, read page by page (`readHistory`). */
export async function history(client: Client, id: string): Promise<MessageParam[]> {
  return readHistory(await existing(client, id));
}

/** The status query. */
export async function status(client: Client, id: string): Promise<ConversationStatus> {
  return onConversation(client, id, (handle) => handle.query(statusQuery));
}

/**
 * Cancels the running turn, and only it: returns that turn's result once it has ended (status
 * `cancelled`, or how it ended if it finished first), or null when no turn was running.
 */
export async function cancelTurn(client: Client, id: string): Promise<TurnResult | null> {
  return (await (await existing(client, id)).executeUpdate(cancelTurnUpdate)).turn;
}

/** Sets a running conversation's context strategy from its next Claude call on; returns it as a spec. */
export async function setContextStrategy(client: Client, id: string, strategy: ContextStrategy): Promise<string> {
  return (await existing(client, id)).executeUpdate(setContextStrategyUpdate, { args: [strategy] });
}

/**
 * Sets a running conversation's thinking (null: off) from its next turn on; returns it as a spec
 * (`adaptive:high`, `4096`, `off`). A budget not below the conversation's maxTokens is refused.
 */
export async function setThinking(client: Client, id: string, thinking: Thinking | null): Promise<string> {
  return (await existing(client, id)).executeUpdate(setThinkingUpdate, { args: [thinking] });
}

/** Sets a running conversation's spending limit (null: none), from its next Claude call; returns it in words. */
export async function setBudget(client: Client, id: string, budget: Budget | null): Promise<string> {
  return (await existing(client, id)).executeUpdate(setBudgetUpdate, { args: [budget] });
}

/**
 * Ends a conversation once its pending turns are done, and returns its summary; a conversation that
 * has already ended returns its summary again.
 */
export async function endConversation(client: Client, id: string): Promise<ConversationSummary> {
  return onConversation(
    client,
    id,
    async (handle) => {
      await handle.signal(endSignal);
      return handle.result();
    },
    (handle) => handle.result(),
  );
}
