/**
 * The suite's two profiles: `quick` for CI (a few minutes), `long` on demand. Every size the
 * scenarios use is here, so the two differ in one place.
 */
import type { PostgresRestartMode } from '../scripts/cluster/postgres';
import type { WorkloadShape } from './support/turn-plan';

/** A kill cadence: the pause before each kill, drawn uniformly from this range. */
export interface KillCadence {
  name: string;
  pauseMs: readonly [number, number];
  kills: number;
}

/** Everything a profile sizes. */
export interface Profile {
  name: 'quick' | 'long';
  shape: WorkloadShape;
  /** The fake model's answer delay range. */
  modelMs: readonly [number, number];
  /** Conversations running at once in the kill scenarios. */
  concurrency: number;
  /** Continue-as-new this often (events), so kills land in it. */
  continueAsNewAfterEvents: number;
  cadences: KillCadence[];
  /** Temporal dev server restarts mid-conversation, and the pause before each. */
  serverRestarts: { restarts: number; pauseMs: readonly [number, number] };
  /** Runs of "two workers, one killed", and the pause before the kill. */
  twoWorkers: { runs: number; pauseMs: readonly [number, number] };
  /** Conversations at once on one worker in the load scenario. */
  loadConversations: number;
  /** MCP tasks: worker kills during one task tool call (per wire), and how long the task works. */
  tasks: { kills: number; taskMs: number };
  /** The PostgreSQL cluster's faults (chaos/scenarios/cluster-faults.ts). */
  cluster: ClusterFaults;
}

/** How often each fault of the cluster scenario strikes, each its own workload on two workers. */
export interface ClusterFaults {
  /** `kill -9` of the Temporal server process, each followed by a start on the same config. */
  serverKills: number;
  /** PostgreSQL restarts, in this order, in one workload. */
  postgresRestarts: PostgresRestartMode[];
  /** Cuts of one worker's connection to the frontend, and how long each lasts. */
  cutOffs: number;
  cutOffMs: number;
  /** The pause before each fault (and after the last, so conversations run on the mended cluster). */
  pauseMs: readonly [number, number];
}

const shape: WorkloadShape = { turns: 4, rounds: [2, 4], parallelTools: 2, toolMs: [100, 500] };

/** The profiles by name. */
export const PROFILES: Record<Profile['name'], Profile> = {
  quick: {
    name: 'quick',
    shape,
    modelMs: [50, 200],
    concurrency: 6,
    continueAsNewAfterEvents: 60,
    cadences: [
      // One: the slow cadence alone is the longest part of the run; the long profile has ten.
      { name: 'every 20–35 s', pauseMs: [20_000, 35_000], kills: 1 },
      // Five: one at each kill aim (a Claude call, a tool call, between rounds, an update being accepted, continue-as-new).
      { name: 'every 4–12 s', pauseMs: [4_000, 12_000], kills: 5 },
    ],
    serverRestarts: { restarts: 2, pauseMs: [5_000, 10_000] },
    twoWorkers: { runs: 1, pauseMs: [4_000, 8_000] },
    loadConversations: 50,
    tasks: { kills: 2, taskMs: 8000 },
    cluster: { serverKills: 1, postgresRestarts: ['fast', 'kill'], cutOffs: 1, cutOffMs: 30_000, pauseMs: [3_000, 6_000] },
  },
  long: {
    name: 'long',
    shape,
    modelMs: [50, 200],
    concurrency: 10,
    continueAsNewAfterEvents: 60,
    cadences: [
      { name: 'every 20–35 s', pauseMs: [20_000, 35_000], kills: 10 },
      { name: 'every 4–12 s', pauseMs: [4_000, 12_000], kills: 30 },
    ],
    serverRestarts: { restarts: 6, pauseMs: [5_000, 20_000] },
    twoWorkers: { runs: 4, pauseMs: [4_000, 15_000] },
    loadConversations: 200,
    tasks: { kills: 5, taskMs: 25_000 },
    cluster: { serverKills: 4, postgresRestarts: ['fast', 'kill', 'fast', 'kill'], cutOffs: 3, cutOffMs: 30_000, pauseMs: [4_000, 12_000] },
  },
};
