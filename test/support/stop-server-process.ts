/**
 * The one way the tests' real backends (Prometheus, Jaeger, Redis, the S3 server) are stopped:
 * SIGTERM, SIGKILL if the process is still there 10 s later, then its temp folder removed.
 */
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

/** Stops `child` (which resolves `exited` when gone) and removes `dir`. */
export async function stopServerProcess(child: ChildProcess, exited: Promise<unknown>, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
  fs.rmSync(dir, { recursive: true, force: true });
}
