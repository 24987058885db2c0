/**
 * The workflow's patches (Temporal's `patched()`, docs/replay.md), asked through {@link isPatched}.
 *
 * Each patch that a run takes records a marker, and Temporal's core adds an upsert of the
 * `TemporalChangeVersion` search attribute to it: a write to the server's visibility store. With a
 * patch for the progress upserts and one for the Claude call's `added` messages, every new run paid
 * two markers and two visibility writes (issue 11: at 200 conversations at once on one dev server
 * the host's turn p95 was 1.59× the floor's with them, 1.50× without, same run). A new run now asks
 * one combined patch, {@link COMBINED_PATCH}, that stands for every patch of {@link PATCHES}: one
 * marker and one visibility write, whichever of them the run reaches. Histories recorded before it
 * hold the single patches' markers, or none: there the combined patch is absent, and each patch is
 * asked by its own id, as before, so they replay unchanged.
 *
 * A patch added later must not join the list (a history with the combined marker ran without it):
 * it is asked by its own id, and a later combined patch may stand for it too, asked first.
 */
import { patched } from '@temporalio/workflow';

/** The patches the combined one stands for: every patch of the workflow up to 2026-12-06. */
export const PATCHES = {
  /** Search attributes and memo kept current (src/workflows/progress.ts). */
  progress: 'progress-search-attributes-and-memo',
  /** A Claude call's input carries the messages added since the previous call (run-turn.ts). */
  addedMessages: 'claude-input-carries-added-messages',
  /** The approval flow of tools that are not `auto` (src/workflows/tool-approval.ts). */
  toolApproval: 'tool-approval',
  /** The context guard counts pending tool results (run-turn.ts). */
  guardCountsToolResults: 'guard-counts-tool-results',
  /** A "prompt is too long" escalates the context strategy and calls again (run-turn.ts). */
  escalateOnPromptTooLong: 'escalate-on-prompt-too-long',
} as const;

/** A patch of {@link PATCHES}. */
export type PatchId = (typeof PATCHES)[keyof typeof PATCHES];

/** The patch a new run records instead of the single ones of {@link PATCHES}. */
export const COMBINED_PATCH = 'host-patches-2026-12';

/**
 * Whether this run takes the patched path of `id`: always in a new run (recording the combined
 * marker once), and in a replay as its history says (the combined marker, else `id`'s own).
 */
export function isPatched(id: PatchId): boolean {
  return patched(COMBINED_PATCH) || patched(id);
}

/**
 * The guard counts the next request's tokens (the `countTokens` activity) when a large tool result
 * joins the prompt, instead of estimating (issue 29; run-turn.ts). Added after the combined patch:
 * asked by its own id.
 */
export const COUNT_TOKENS_PATCH = 'count-tokens-for-large-results';

/**
 * Between turns, a conversation moves to the worker deployment's new current version by continuing
 * as new (Worker Versioning; src/workflows/version-upgrade.ts). Asked by its own id, and only when
 * the server says the target version changed, so unversioned runs record nothing.
 */
export const UPGRADE_ON_CONTINUE_AS_NEW_PATCH = 'upgrade-on-continue-as-new';
