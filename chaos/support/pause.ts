import { setTimeout as sleep } from 'node:timers/promises';

/** Sleeps a random time in the range (ms, inclusive): the irregular rhythm of the faults. */
export function pauseWithin(range: readonly [number, number]): Promise<void> {
  return sleep(range[0] + Math.random() * (range[1] - range[0]));
}
