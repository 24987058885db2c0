/**
 * Worker Versioning inside the conversation workflow (src/worker/worker-deployment.ts has the
 * worker's side; docs/upgrades.md the runbook).
 *
 * A conversation is pinned to the worker deployment version it started on. When the server tells a
 * workflow task that a newer version is now the target (`targetWorkerDeploymentVersionChanged`), the
 * conversation continues as new at its next idle point, and the new run starts on the current
 * version (`initialVersioningBehavior: 'AUTO_UPGRADE'`). Any continue-as-new of a versioned run does
 * the same, so a long conversation moves too. Unversioned workers see neither: the flag stays false
 * and a continue-as-new is as before.
 */
import { log, makeContinueAsNewFunc, patched, workflowInfo, type Workflow } from '@temporalio/workflow';
import { UPGRADE_ON_CONTINUE_AS_NEW_PATCH } from './patches';

/**
 * A conversation run's view of a version move. `pending()` is a pure read for conditions; `decide()`
 * is asked where the workflow decides, and takes the patch (its marker recorded the first time). A
 * run stops waking for a move it declined: a history from before the patch, or a run that a move
 * meant to leave `leftVersion` and that still runs on it (a server that cannot move it).
 */
export class VersionMove {
  private declined: boolean;

  constructor(leftVersion: string | undefined) {
    this.declined = leftVersion !== undefined && leftVersion === currentBuildId();
    if (this.declined) log.warn('Worker Versioning: a continue-as-new meant to move this conversation to the current version left it on the same one; it stays here', { buildId: leftVersion });
  }

  /** The server says a newer deployment version is this conversation's target, and this run has not declined it. */
  pending(): boolean {
    return !this.declined && workflowInfo().targetWorkerDeploymentVersionChanged;
  }

  /** Whether to hand over to the new version at this idle point. */
  decide(): boolean {
    if (!this.pending()) return false;
    this.declined = !patched(UPGRADE_ON_CONTINUE_AS_NEW_PATCH);
    return !this.declined;
  }
}

/** The build id of the worker deployment version running this task, if versioned. */
export function currentBuildId(): string | undefined {
  return workflowInfo().currentDeploymentVersion?.buildId;
}

/**
 * Continues as new with `args`; a versioned run's next run starts on the deployment's current
 * version instead of inheriting this run's pinned one.
 */
export function continueOnCurrentVersion<F extends Workflow>(...args: Parameters<F>): Promise<never> {
  const versioned = workflowInfo().currentDeploymentVersion !== undefined;
  return makeContinueAsNewFunc<F>(versioned ? { initialVersioningBehavior: 'AUTO_UPGRADE' } : {})(...args);
}
