/**
 * Processes a scenario left behind: any live process whose environment or command line names the
 * scenario's directory (workers get their mcp.json from it, MCP servers their call logs), and any
 * zombie child of this process. Read from /proc (Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // ended while being read, or not ours to read
  }
}

/** The zombie children of `parent` (children that ended and were never reaped). */
export function zombieChildrenOf(parent: number): number[] {
  const zombies: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readText(`/proc/${entry}/stat`);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' && Number(fields[1]) === parent) zombies.push(Number(entry));
  }
  return zombies;
}

/** A grace period: processes killed a moment ago may still be on their way out. */
const SETTLE_MS = 3000;

/**
 * One line per process left behind by the scenario that used `dir`, once everything it started
 * was stopped; empty when none. Waits up to a few seconds for killed processes to be gone.
 */
export async function leftoverProcesses(dir: string): Promise<string[]> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const found = processesNaming(dir);
    if (found.length === 0 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function processesNaming(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const stat = readText(`/proc/${entry}/stat`);
    if (stat === '' || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
    const command = readText(`/proc/${entry}/cmdline`).split('\0').join(' ').trim();
    if (command.includes(dir) || readText(`/proc/${entry}/environ`).includes(dir)) found.push(`pid ${entry}: ${command}`);
  }
  return [...found, ...zombieChildrenOf(process.pid).map((pid) => `pid ${pid}: a zombie child of the runner`)];
}
