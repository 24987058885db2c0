/**
 * Worker Versioning: a worker registers as one version (deployment name + build id) of a Temporal
 * worker deployment, so a new version of the code can be rolled out beside the old one (docs/upgrades.md).
 *
 * Conversations are *pinned*: every workflow task of a run goes to the version that started it, so a
 * change to the workflow code never meets a history it would not replay. Between turns, when a newer
 * version has become the deployment's current one, a conversation continues as new onto it
 * (`targetWorkerDeploymentVersionChanged`, upgrade on continue-as-new; conversation-workflow.ts). A
 * turn in flight, or one waiting for an approval, finishes on the version it started on; the old
 * version drains as its conversations reach their next idle point.
 *
 * Off unless `MCP_HOST_DEPLOYMENT` names the deployment. `npm start` leaves it off: its one worker is
 * replaced by the next start, and a conversation pinned to the old build would wait for a worker of
 * that build that never comes back (`patched()` covers such in-place upgrades).
 */
import type { Client } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The version a worker registers as. */
export type DeploymentVersion = WorkerDeploymentVersion;

/** What a deployment name may hold here: no `.` or `:` (they join a name and a build id in the server's version strings). */
const DEPLOYMENT_NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_+=@-]{0,254}$/;
/** What a build id may hold here: a version and a commit (`0.1.0-3f2c1ab9d0e4`), no spaces or `:`. */
const BUILD_ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.+=@-]{0,254}$/;

/** A bad `MCP_HOST_DEPLOYMENT` / `MCP_HOST_BUILD_ID`, named, so a typo never goes unseen. */
export class DeploymentSettingError extends Error {
  override readonly name = 'DeploymentSettingError';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** The package's version and, in a git checkout, the commit: the default build id (`0.1.0-3f2c1ab9d0e4`). */
export function defaultBuildId(root: string = path.resolve(__dirname, '..', '..')): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).toString().trim();
  } catch {
    commit = undefined; // not a checkout (an image, an npm install): the version alone
  }
  return commit ? `${version}-${commit}` : version;
}

/**
 * The version this worker registers as, from `MCP_HOST_DEPLOYMENT` (the deployment's name) and
 * `MCP_HOST_BUILD_ID` (default {@link defaultBuildId}); undefined when no deployment is named.
 */
export function deploymentFromEnv(env: NodeJS.ProcessEnv = process.env, buildId: () => string = defaultBuildId): DeploymentVersion | undefined {
  const deploymentName = nonEmpty(env.MCP_HOST_DEPLOYMENT);
  const explicitBuildId = nonEmpty(env.MCP_HOST_BUILD_ID);
  // A build id alone (an image's baked one) changes nothing: versioning is on only with a deployment.
  if (deploymentName === undefined) return undefined;
  const version = { deploymentName, buildId: explicitBuildId ?? buildId() };
  if (!DEPLOYMENT_NAME_PATTERN.test(version.deploymentName)) {
    throw new DeploymentSettingError(`MCP_HOST_DEPLOYMENT ${JSON.stringify(version.deploymentName)}: use letters, digits, '-', '_', '+', '=' or '@' (no '.' or ':'), at most 255`);
  }
  if (!BUILD_ID_PATTERN.test(version.buildId)) {
    throw new DeploymentSettingError(`MCP_HOST_BUILD_ID ${JSON.stringify(version.buildId)}: use letters, digits, '.', '-', '_', '+', '=' or '@' (no spaces or ':'), at most 255`);
  }
  return version;
}

/** The worker options that make a worker this version, its conversations pinned. */
export function workerDeploymentOptions(version: DeploymentVersion): { useWorkerVersioning: true; version: DeploymentVersion; defaultVersioningBehavior: 'PINNED' } {
  return { useWorkerVersioning: true, version, defaultVersioningBehavior: 'PINNED' };
}

/** How a version is written in the CLI's commands and the server's answers: `name:buildId`. */
export function versionLabel(version: DeploymentVersion): string {
  return `${version.deploymentName}:${version.buildId}`;
}

/**
 * Makes `version` the deployment's current version when the deployment has none yet (its first
 * version: otherwise new conversations would wait for unversioned workers that never come). Later
 * versions become current by the runbook (docs/upgrades.md), never by a worker on its own. The
 * server knows a version only once its worker polls, so this tries for up to `waitMs`.
 * Returns what it did.
 */
export async function becomeCurrentIfFirst(client: Client, namespace: string, version: DeploymentVersion, waitMs = 30_000): Promise<'made current' | 'another is current' | 'already current'> {
  const service = client.workflowService;
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      const described = await service.describeWorkerDeployment({ namespace, deploymentName: version.deploymentName });
      const current = described.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion;
      if (current?.buildId) return current.buildId === version.buildId ? 'already current' : 'another is current';
      await service.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        conflictToken: described.conflictToken,
        identity: `mcp-host worker ${versionLabel(version)}`,
      });
      return 'made current';
    } catch (err) {
      // Not found yet (the worker's first poll has not registered it), or another worker won the race.
      if (Date.now() >= until) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
