/**
 * Temporal's floor, for the performance benchmark only (bundled on its own): a conversation-shaped
 * workflow that does nothing but what Temporal itself costs. A turn arrives as an update, as the
 * host's does, and runs the same sequence of activities the host's turn runs (a tool listing, then
 * the model and tool calls in turn), each an activity that only waits its given milliseconds (0:
 * empty). No payload beyond a number, no transcript, no query.
 */
import { condition, defineSignal, defineUpdate, proxyActivities, setHandler } from '@temporalio/workflow';

/** The floor's only activity. */
export interface FloorActivities {
  step(ms: number): Promise<void>;
}

/** One turn: the milliseconds of each activity, run one after another; answers the turn number. */
export const floorTurnUpdate = defineUpdate<number, [number[]]>('floorTurn');
export const floorEndSignal = defineSignal('floorEnd');

export async function floorWorkflow(input: { eager: boolean }): Promise<number> {
  const { step } = proxyActivities<FloorActivities>({
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 3 },
    allowEagerDispatch: input.eager,
  });
  let ended = false;
  let turns = 0;
  let running = Promise.resolve();
  setHandler(floorTurnUpdate, (steps) => {
    // Turns run in order, as the host's do.
    const turn = running.then(async () => {
      for (const ms of steps) await step(ms);
      return (turns += 1);
    });
    running = turn.then(() => undefined);
    return turn;
  });
  setHandler(floorEndSignal, () => {
    ended = true;
  });
  await condition(() => ended);
  await running;
  return turns;
}
