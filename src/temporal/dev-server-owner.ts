/**
 * Which process owns the dev server that keeps a data file, so that a dev server left running by
 * an `npm start` that died without stopping it (`kill -9`, a crash of Node itself) is stopped by
 * the next start on the same data instead of blocking it ("port 7233 is already in use") or, on
 * other ports, sharing the SQLite file with it.
 *
 * The dev server runs in a session of its own (so a terminal's Ctrl-C reaches `npm start`, which
 * stops the worker first and then the server): nothing else ends it when its owner dies. Beside
 * the data file a small record names the server's pid and its owner's; a later start stops the
 * server only when that record's owner is gone and the pid is still a `temporal server start-dev`
 * of this very data file, never a server another live `npm start` is using.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

/** What is written beside the data file while a dev server runs on it. */
export interface DevServerRecord {
  /** The dev server's process. */
  pid: number;
  /** The process that started it and stops it (`npm start`). */
  ownerPid: number;
  /** Its frontend's address. */
  address: string;
}

/** The record's path for the data file `dbFile`. */
export function recordPath(dbFile: string): string {
  return `${dbFile}.server.json`;
}

/** Records that `pid`, started by this process, serves `dbFile`. */
export function writeRecord(dbFile: string, record: Omit<DevServerRecord, 'ownerPid'>): void {
  const full: DevServerRecord = { ...record, ownerPid: process.pid };
  fs.writeFileSync(recordPath(dbFile), `${JSON.stringify(full)}\n`);
}

/** Removes the record, if it is still the one of `pid` (a later start may have written its own). */
export function removeRecord(dbFile: string, pid: number): void {
  if (readRecord(dbFile)?.pid === pid) fs.rmSync(recordPath(dbFile), { force: true });
}

function readRecord(dbFile: string): DevServerRecord | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(recordPath(dbFile), 'utf8')) as Partial<DevServerRecord>;
    if (!Number.isInteger(value.pid) || !Number.isInteger(value.ownerPid) || typeof value.address !== 'string') return undefined;
    return value as DevServerRecord;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (ended, not yet reaped by its parent) answers signals but runs nothing.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): the signal said it exists
  }
}

/** A process's command line: /proc on Linux, `ps` elsewhere (macOS); undefined when unknown. */
function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    try {
      return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return undefined;
    }
  }
}

/** What a start finds recorded for its data file. */
export type Leftover =
  | { kind: 'none' }
  /** A dev server whose owner is gone: safe to stop. */
  | { kind: 'orphan'; pid: number; address: string }
  /** A dev server that a live process (another `npm start`) runs on this data. */
  | { kind: 'in-use'; pid: number; ownerPid: number; address: string };

/** What runs on `dbFile` by its record; a record of a server that is gone is removed. */
export function findLeftover(dbFile: string): Leftover {
  const record = readRecord(dbFile);
  if (record === undefined) return { kind: 'none' };
  const command = alive(record.pid) ? commandLine(record.pid) : undefined;
  // Gone, or its pid now belongs to something else: nothing to stop.
  if (command === undefined || !command.includes('start-dev') || !command.includes(dbFile)) {
    fs.rmSync(recordPath(dbFile), { force: true });
    return { kind: 'none' };
  }
  // Its owner still runs (this very process included): it is in use, whatever the ports.
  if (record.ownerPid === process.pid || alive(record.ownerPid)) {
    return { kind: 'in-use', pid: record.pid, ownerPid: record.ownerPid, address: record.address };
  }
  return { kind: 'orphan', pid: record.pid, address: record.address };
}

/** Stops the orphaned server `pid` (SIGTERM, then SIGKILL after `graceMs`) and waits until it is gone. */
export async function stopOrphan(pid: number, dbFile: string, graceMs: number = 10_000): Promise<void> {
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(pid, name);
    } catch {
      // gone meanwhile
    }
  };
  signal('SIGTERM');
  const started = Date.now();
  while (alive(pid)) {
    const waited = Date.now() - started;
    if (waited > graceMs) signal('SIGKILL');
    if (waited > graceMs + 5000) throw new Error(`the dev server left running on ${dbFile} (pid ${pid}) did not stop, even after SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  removeRecord(dbFile, pid);
}
