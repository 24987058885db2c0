/**
 * CPU time and memory of a process, read from /proc (Linux): the benchmark's workers, and the dev
 * server it measures them on, found by the port it listens on.
 */
import * as fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of `pid` so far. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th overall.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** User + system CPU seconds so far of the live children of `pid` (a worker's MCP servers). */
export function childrenCpuSeconds(pid: number): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) total += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM). */
export function statusBytes(pid: number, field: string): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

/**
 * The pid of the `temporal server start-dev` listening on `port` (its command line names the
 * port), or undefined when none is found.
 */
export function devServerPid(port: number): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (!args.includes('start-dev')) continue;
    const at = args.findIndex((arg) => arg === '--port' || arg === '-p');
    if (at >= 0 && args[at + 1] === String(port)) return Number(entry);
  }
  return undefined;
}
