/**
 * The moments a kill is aimed at, and how the suite sees each one coming: a Claude call in flight
 * (the fake is answering), a tool call in flight (the lab log has a start with no end), between
 * rounds (a tool call just ended), an update being accepted (a send was just issued), and a
 * continue-as-new (a turn just ended, which is when the workflow hands over to a new run).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChaosModel } from './chaos-model';
import type { ConversationWorkload } from './conversation-workload';
import { endedCalls, unfinishedCalls } from './tool-log';
import type { WorkerFleet } from './worker-fleet';

/** The kill moments, in the order the scenario cycles through them. */
export const KILL_AIMS = ['Claude call', 'tool call', 'between rounds', 'update admission', 'continue-as-new'] as const;

/** One of the kill moments. */
export type KillAim = (typeof KILL_AIMS)[number];

/** What the aims watch. */
export interface AimTargets {
  model: ChaosModel;
  fleet: WorkerFleet;
  workload: ConversationWorkload;
}

async function poll(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await sleep(5);
  }
  return false;
}

async function event(happened: Promise<void>, timeoutMs: number): Promise<boolean> {
  return Promise.race([happened.then(() => true), sleep(timeoutMs).then(() => false)]);
}

/** Waits (at most `timeoutMs`) until the aimed moment is happening; false when it did not come. */
export async function waitForAim(aim: KillAim, targets: AimTargets, timeoutMs: number): Promise<boolean> {
  const labLog = targets.fleet.alive().at(-1)?.labLog ?? '';
  switch (aim) {
    case 'Claude call':
      return poll(() => targets.model.inFlight(), timeoutMs);
    case 'tool call':
      return poll(() => unfinishedCalls(labLog).length > 0, timeoutMs);
    case 'between rounds': {
      const ended = endedCalls(labLog);
      return poll(() => endedCalls(labLog) > ended, timeoutMs);
    }
    case 'update admission': {
      const seen = await event(targets.workload.onceSend(), timeoutMs);
      // The update is on its way to the server: killing now catches its admission or acceptance.
      if (seen) await sleep(Math.random() * 20);
      return seen;
    }
    case 'continue-as-new':
      return event(targets.workload.onceAnswer(), timeoutMs);
    default: {
      const unreachable: never = aim;
      throw new Error(`unknown aim ${String(unreachable)}`);
    }
  }
}
