/**
 * Reading the lab server's call logs (`start <text>` / `end <text>` lines, test/fixtures/lab-server.ts):
 * each chaos tool call has a text unique in the run, so the logs tell how often each tool_use id
 * really ran, and whether a call is running right now.
 */
import * as fs from 'node:fs';

function lines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
}

/** How many times each call text started, over all the logs (one per worker generation). */
export function executionCounts(files: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of files) {
    for (const line of lines(file)) {
      if (line.startsWith('start ')) counts.set(line.slice(6), (counts.get(line.slice(6)) ?? 0) + 1);
    }
  }
  return counts;
}

/** Executions beyond the first, summed over every call whose text starts with `prefix`: the tool re-executions. */
export function reExecutions(files: readonly string[], prefix = ''): number {
  let extra = 0;
  for (const [text, count] of executionCounts(files)) if (text.startsWith(prefix)) extra += count - 1;
  return extra;
}

/** Calls started and not ended in this log: a worker killed now cuts them off. */
export function unfinishedCalls(file: string): string[] {
  const open = new Map<string, number>();
  for (const line of lines(file)) {
    if (line.startsWith('start ')) open.set(line.slice(6), (open.get(line.slice(6)) ?? 0) + 1);
    else if (line.startsWith('end ')) open.set(line.slice(4), (open.get(line.slice(4)) ?? 0) - 1);
  }
  return [...open].filter(([, n]) => n > 0).map(([text]) => text);
}

/** How many calls this log shows ended: a change means a round's tools just finished. */
export function endedCalls(file: string): number {
  return lines(file).filter((line) => line.startsWith('end ')).length;
}
