/**
 * While a `chat` turn runs, whatever waits for the person at the keyboard is asked about inline: the
 * tool calls waiting for approval (approval-prompt.ts) and the servers' requests for input
 * (input-prompt.ts). One status query a tick serves every prompt, and the prompts run one after the
 * other, so one question is open at a time (readline would leave a second one unanswered). A
 * question still open when the turn ends (decided elsewhere meanwhile) is withdrawn.
 */
import type { Client } from '@temporalio/client';
import type { ConversationStatus } from '../conversation/types';
import { statusQuery } from '../workflows/definitions';

/** How often the waiting chat asks the conversation's status. */
export const PROMPT_POLL_MS = 1000;

/**
 * Asks about what one status shows waiting (each thing once across ticks: the prompt keeps that
 * memory). `ended` aborts when the turn ends: an open question is then withdrawn.
 */
export type StatusPrompt = (status: ConversationStatus, ended: AbortSignal) => Promise<void>;

/** Waits for `turn` of conversation `id`, running `prompts` on its status every `pollMs`; resolves with the turn's answer. */
export async function promptWhileTurnRuns<T>(client: Client, id: string, turn: Promise<T>, prompts: readonly StatusPrompt[], pollMs = PROMPT_POLL_MS): Promise<T> {
  let done = false;
  const ended = new AbortController();
  void turn
    .finally(() => {
      done = true;
      ended.abort();
    })
    .catch(() => undefined);
  const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, pollMs));
  while (!done) {
    await Promise.race([turn.then(() => undefined, () => undefined), tick()]);
    if (done) break;
    let status: ConversationStatus;
    try {
      status = await client.workflow.getHandle(id).query(statusQuery);
    } catch {
      continue; // not started yet, or no worker answering this moment
    }
    for (const prompt of prompts) {
      if (done) break;
      await prompt(status, ended.signal);
    }
  }
  return turn;
}
