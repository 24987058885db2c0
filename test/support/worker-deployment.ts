/**
 * What the Worker Versioning tests share (test/integration/worker-versioning.test.ts on the dev
 * server, test/cluster/rolling-upgrade.test.ts on the PostgreSQL cluster): the runbook's `temporal`
 * commands against a given server (docs/upgrades.md), and what the server says of a conversation's
 * version.
 */
import type { Client } from '@temporalio/client';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';

const run = promisify(execFile);

/** Runs one `temporal …` command against `address` and returns its stdout. */
export type TemporalCli = (...args: string[]) => Promise<string>;

/** The project's Temporal CLI (`npm run setup` finds it), its commands aimed at `address`. */
export function temporalCliAt(address: string): TemporalCli {
  return async (...args: string[]): Promise<string> => {
    const cli = findTemporalCli();
    if (!cli) throw new Error('no Temporal CLI (npm run setup)');
    const { stdout } = await run(cli.path, [...args, '--address', address], { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  };
}

/** A run of a conversation and the worker deployment version it is on. */
export interface RunVersion {
  runId: string;
  /** The build id of the version the run is on; undefined for an unversioned run. */
  buildId: string | undefined;
  /** `PINNED` or `AUTO_UPGRADE`; undefined for an unversioned run. */
  behavior: string | undefined;
}

const BEHAVIORS: Record<number, string> = { 1: 'PINNED', 2: 'AUTO_UPGRADE' };

/** A conversation's run (default its latest) and the version the server has it on (`describe()`'s versioning info). */
export async function versionOf(client: Client, id: string, runId?: string): Promise<RunVersion> {
  const described = await client.workflow.getHandle(id, runId).describe();
  const info = described.raw.workflowExecutionInfo?.versioningInfo;
  return { runId: described.runId, buildId: info?.deploymentVersion?.buildId ?? undefined, behavior: BEHAVIORS[Number(info?.behavior ?? 0)] };
}

/** The visibility query of the runbook's drain check: the running workflows on `deploymentName:buildId`. */
export function runningOnQuery(deploymentName: string, buildId: string): string {
  return `TemporalWorkerDeploymentVersion = "${deploymentName}:${buildId}" AND ExecutionStatus = "Running"`;
}

/** How many workflows of `taskQueue` run on version `deploymentName:buildId` (the runbook's `temporal workflow count`). */
export async function runningOn(client: Client, deploymentName: string, buildId: string, taskQueue: string): Promise<number> {
  return (await client.workflow.count(`${runningOnQuery(deploymentName, buildId)} AND TaskQueue = "${taskQueue}"`)).count;
}
