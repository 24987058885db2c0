import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often the process table is looked at while waiting. */
const POLL_MS = 25;

/**
 * Whether `pid` is still a child of this process. On Linux the parent pid in `/proc/<pid>/stat` is
 * checked, so a pid the system has already handed to an unrelated process is never mistaken for
 * ours; elsewhere only existence can be checked.
 */
export function isChildAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux') return false;
    return existsElsewhere(pid);
  }
  // The command name (field 2) is in parentheses and may contain spaces; fields after it are plain.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const ppid = Number(fields[1]);
  // A zombie has exited; Node reaps it on its next SIGCHLD.
  return ppid === process.pid && state !== 'Z';
}

/**
 * Waits until the child process `pid` has exited, up to `timeoutMs`; a child still there then is
 * sent SIGKILL (it is verified to be ours first) and waited for briefly once more.
 *
 * The MCP SDK's stdio transport escalates stdin-close → SIGTERM → SIGKILL but returns without
 * waiting after the last step; the host promises that no server process outlives the worker, so
 * shutdown waits here.
 *
 * @returns whether the child is gone.
 */
export async function waitForChildExit(pid: number, timeoutMs: number): Promise<boolean> {
  if (await pollUntilGone(pid, timeoutMs)) return true;
  if (isChildAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It exited between the check and the kill.
    }
  }
  return pollUntilGone(pid, 1000);
}

async function pollUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isChildAlive(pid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}

function existsElsewhere(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
