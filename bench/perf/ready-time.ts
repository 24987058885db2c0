/**
 * A worker's ready time: from spawning its process to its first workflow-task poll reaching the
 * server (seen with DescribeTaskQueue); then the process is stopped. Used by `npm run bench:ready`
 * and the start-up section of `npm run bench`.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { ConnectionLike } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const REPO_ROOT = path.resolve(__dirname, '../..');

async function hasPoller(connection: ConnectionLike, taskQueue: string): Promise<boolean> {
  const response = await connection.workflowService.describeTaskQueue({
    namespace: 'default',
    taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  return (response.pollers ?? []).length > 0;
}

/** Spawns `node ARGS` with `env` and returns the milliseconds until a poller of `taskQueue` is seen. */
export async function measureReady(connection: ConnectionLike, args: string[], env: Record<string, string>, taskQueue: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Registered at once: a worker that fails at start may be gone before the poll loop looks again.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`worker exited (${child.exitCode}):\n${stderr}`);
      if (await hasPoller(connection, taskQueue)) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error(`no poll after 120 s:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
}
