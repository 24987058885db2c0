import { DEFAULTS } from '../config/settings';
import type { ConversationOptions } from '../conversation/types';
import { DEFAULT_COMPACTION_THRESHOLD } from '../context/context-guard';
import { contextWindowOf } from '../models/context-windows';

/**
 * How long an activity may go without a heartbeat before Temporal takes its worker for lost and
 * runs it elsewhere. Activities heartbeat every second, and the worker sends each one (its throttle
 * is capped at 1 s). Measured (bench/failover.ts): the retry starts about a second after the last
 * heartbeat plus this timeout, so 3 s resumes a killed worker's call in about 3.5 s (4 s: 4.5 s,
 * 30 s: 31 s) when a new worker is ready by then; a live but busy worker may still miss two
 * heartbeats in a row (its event loop stalled 2 s) before its call is taken for lost and run again.
 * Fixed per conversation when it starts: running conversations keep the value they started with.
 */
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 3_000;

/** The options a caller may set; the rest take the defaults. */
export type ConversationOptionsInput = Partial<ConversationOptions>;

/**
 * Fills defaults and rejects values the loop cannot work with, with a clear message. The numbers
 * the workflow's context guard decides by (the model's context window from
 * src/models/context-windows.ts, the compaction threshold) are pinned here, in the workflow's
 * input, so that changing those tables never changes what a running conversation's replay
 * decides; the workflow falls back to the tables only for conversations started before this.
 */
export function conversationOptions(input: ConversationOptionsInput, defaultModel: string = DEFAULTS.model): ConversationOptions {
  const model = input.model ?? defaultModel;
  const options: ConversationOptions = {
    model,
    maxTokens: input.maxTokens ?? DEFAULTS.maxTokens,
    maxIterations: input.maxIterations ?? DEFAULTS.maxIterations,
    toolHeartbeatTimeoutMs: input.toolHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    modelHeartbeatTimeoutMs: input.modelHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    ...(input.system !== undefined && input.system !== '' ? { system: input.system } : {}),
    ...(input.continueAsNewAfterEvents !== undefined ? { continueAsNewAfterEvents: input.continueAsNewAfterEvents } : {}),
    ...(input.context !== undefined ? { context: input.context } : {}),
    ...(input.promptCache !== undefined ? { promptCache: input.promptCache } : {}),
    contextWindow: input.contextWindow ?? contextWindowOf(model),
    compactionThreshold: input.compactionThreshold ?? DEFAULT_COMPACTION_THRESHOLD,
    ...(input.prices !== undefined ? { prices: input.prices } : {}),
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
  const threshold = options.compactionThreshold;
  if (threshold !== undefined && !(threshold > 0 && threshold <= 1)) {
    throw new Error(`compactionThreshold must be in (0, 1], got ${String(threshold)}`);
  }
  return options;
}
