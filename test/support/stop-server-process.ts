/**
 * How the tests' real backends (Prometheus, Jaeger, Redis, the S3 server) are watched and stopped:
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

/** A started server's output lines, and a promise that resolves once it is gone (or could not start). */
export function watchServerProcess(child: ChildProcess, binary: string): { lines: string[]; exited: Promise<void> } {
  const lines: string[] = [];
  child.stdout?.on('data', (d: Buffer) => lines.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => lines.push(d.toString()));
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', (err) => {
      lines.push(`cannot run ${binary}: ${err.message}\n`);
      resolve();
    });
  });
  return { lines, exited };
}
