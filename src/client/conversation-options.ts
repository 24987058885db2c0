import { DEFAULTS } from '../config/settings';
import type { ConversationOptions } from '../conversation/types';
import { DEFAULT_COMPACTION_THRESHOLD } from '../context/context-guard';
import { contextWindowOf } from '../models/context-windows';
import { isToolSearchMode, TOOL_SEARCH_MODES } from '../claude/tool-search';
import { serverToolsProblem, type ServerToolSpec } from '../claude/server-tools';
import { ADAPTIVE_THINKING_MAX_TOKENS, thinkingProblem, type Thinking } from '../conversation/thinking';
import { budgetProblem } from '../conversation/budget';

/**
 * How long an activity may go without a heartbeat before Temporal takes its worker for lost and
 * runs it elsewhere. Activities heartbeat every second, and the worker sends each one (its throttle
 * is capped at 250 ms). Measured (bench/failover.ts): the retry starts the retry policy's first
 * interval (0.1 s) after the last heartbeat plus this timeout, on a server with the timer setting
 * of src/temporal/server-tuning.ts (a second later on one without), so 3 s resumes a killed
 * worker's call about 3.1 s after its last heartbeat when a new worker is ready by then; a live but
 * busy worker may still miss two heartbeats in a row (its event loop stalled 2 s) before its call
 * is taken for lost and run again. Fixed per conversation when it starts: running conversations
 * keep the value they started with.
 */
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 3_000;

/**
 * Continue-as-new after this many history events, by default (at the end of a turn; a single long
 * turn may overshoot it). What bounds a workflow task's work: a worker that takes over a
 * conversation (after a crash, or when the conversation left its cache) replays the current run's
 * whole history in one task, at about 1.2 ms per event here (`.ci`-class machine, 2 cores: 1,004
 * events in 1.25 s, 3,980 in 4.7–5.6 s, `Worker.runReplayHistory` over recorded runs of 82 and 330
 * model calls). Without a bound a run grows until the server suggests continue-as-new (thousands of
 * events), and its replay would outlast {@link WORKFLOW_TASK_TIMEOUT_MS}, again at every attempt.
 */
export const DEFAULT_CONTINUE_AS_NEW_AFTER_EVENTS = 1_000;

/**
 * The workflow task timeout of every conversation: how long a workflow task taken by a worker that
 * then dies holds up its conversation (a crash inside a task; a task's own work is milliseconds),
 * and so what a kill aimed between rounds, at an update or at a continue-as-new costs. Temporal's
 * default is 10 s. 3 s is as long as the heartbeat timeout, so no kind of moment a worker dies in
 * costs more than the others; it keeps a 2.4× margin over the replay of a run of
 * {@link DEFAULT_CONTINUE_AS_NEW_AFTER_EVENTS} events, and the longest tasks measured under load
 * (`npm run chaos`, 200 conversations on one worker: 1.8 s at most, p99 0.5 s) are in
 * docs/RELIABILITY.md. A task that does outlast it is not lost: it times out and runs again.
 * Fixed per conversation when it starts.
 */
export const WORKFLOW_TASK_TIMEOUT_MS = 3_000;

/**
 * `maxTokens` when the caller sets none: thinking tokens count toward it, so a thinking budget gets
 * the default answer's room on top, and adaptive thinking {@link ADAPTIVE_THINKING_MAX_TOKENS}.
 */
function defaultMaxTokens(thinking: Thinking | undefined): number {
  if (thinking?.type === 'enabled' && Number.isSafeInteger(thinking.budgetTokens)) return thinking.budgetTokens + DEFAULTS.maxTokens;
  if (thinking?.type === 'adaptive') return ADAPTIVE_THINKING_MAX_TOKENS;
  return DEFAULTS.maxTokens;
}

/** The options a caller may set; the rest take the defaults. */
export type ConversationOptionsInput = Partial<ConversationOptions>;

/**
 * Fills defaults and rejects values the loop cannot work with, with a clear message. The numbers
 * the workflow's context guard decides by (the model's context window from
 * src/models/context-windows.ts, the compaction threshold) are pinned here, in the workflow's
 * input, so that changing those tables never changes what a running conversation's replay
 * decides; the workflow falls back to the tables only for conversations started before this.
 * Server tools not given take `defaultServerTools` (`MCP_HOST_SERVER_TOOLS`); `[]` is none.
 */
export function conversationOptions(
  input: ConversationOptionsInput,
  defaultModel: string = DEFAULTS.model,
  defaultServerTools: readonly ServerToolSpec[] = [],
): ConversationOptions {
  const model = input.model ?? defaultModel;
  const serverTools = input.serverTools ?? defaultServerTools;
  // Checked first: a library caller's value may be anything.
  const serverToolsIssue = serverToolsProblem(serverTools);
  if (serverToolsIssue !== undefined) throw new Error(serverToolsIssue);
  const options: ConversationOptions = {
    model,
    maxTokens: input.maxTokens ?? defaultMaxTokens(input.thinking),
    maxIterations: input.maxIterations ?? DEFAULTS.maxIterations,
    toolHeartbeatTimeoutMs: input.toolHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    modelHeartbeatTimeoutMs: input.modelHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    ...(input.system !== undefined && input.system !== '' ? { system: input.system } : {}),
    continueAsNewAfterEvents: input.continueAsNewAfterEvents ?? DEFAULT_CONTINUE_AS_NEW_AFTER_EVENTS,
    ...(input.context !== undefined ? { context: input.context } : {}),
    ...(input.promptCache !== undefined ? { promptCache: input.promptCache } : {}),
    contextWindow: input.contextWindow ?? contextWindowOf(model),
    compactionThreshold: input.compactionThreshold ?? DEFAULT_COMPACTION_THRESHOLD,
    ...(input.prices !== undefined ? { prices: input.prices } : {}),
    ...(input.roots !== undefined && input.roots.length > 0 ? { roots: [...input.roots] } : {}),
    ...(input.inputTimeoutMs !== undefined ? { inputTimeoutMs: input.inputTimeoutMs } : {}),
    // `null` (as `--thinking off` parses) is no thinking, as unset.
    ...(input.thinking !== undefined && input.thinking !== null ? { thinking: input.thinking } : {}),
    // Unset is `auto`; only a chosen mode is pinned in the input.
    ...(input.toolSearch !== undefined ? { toolSearch: input.toolSearch } : {}),
    // None is left out, so a conversation without server tools starts as it always did.
    ...(serverTools.length > 0 ? { serverTools: serverTools.map((tool) => ({ ...tool })) } : {}),
    ...(input.budget !== undefined ? { budget: { ...input.budget } } : {}),
  };
  const positive = (name: string, value: number): void => {
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${String(value)}`);
  };
  if (options.model.trim() === '') throw new Error('model must not be empty');
  positive('maxTokens', options.maxTokens);
  positive('maxIterations', options.maxIterations);
  positive('toolHeartbeatTimeoutMs', options.toolHeartbeatTimeoutMs);
  positive('modelHeartbeatTimeoutMs', options.modelHeartbeatTimeoutMs);
  if (options.continueAsNewAfterEvents !== undefined) positive('continueAsNewAfterEvents', options.continueAsNewAfterEvents);
  if (options.contextWindow !== undefined) positive('contextWindow', options.contextWindow);
  if (options.inputTimeoutMs !== undefined) positive('inputTimeoutMs', options.inputTimeoutMs);
  for (const root of options.roots ?? []) {
    if (typeof root !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(root)) throw new Error(`a root must be a URI such as file:///srv/docs, got ${JSON.stringify(root)}`);
  }
  if (options.toolSearch !== undefined && !isToolSearchMode(options.toolSearch)) {
    throw new Error(`toolSearch must be one of ${TOOL_SEARCH_MODES.join(', ')}, got ${JSON.stringify(options.toolSearch)}`);
  }
  const thinking = thinkingProblem(options.thinking, options.maxTokens);
  if (thinking !== undefined) throw new Error(thinking);
  const budget = budgetProblem(options.budget);
  if (budget !== undefined) throw new Error(budget);
  const threshold = options.compactionThreshold;
  if (threshold !== undefined && !(threshold > 0 && threshold <= 1)) {
    throw new Error(`compactionThreshold must be in (0, 1], got ${String(threshold)}`);
  }
  return options;
}
