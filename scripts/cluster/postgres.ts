/**
 * A throwaway PostgreSQL for the cluster: Debian's binaries (`apt-get install postgresql`), a fresh
 * data folder and a free loopback port, so it never touches a system cluster. PostgreSQL refuses
 * to run as root, so as root its commands run as the `postgres` user.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from '../../src/temporal/free-port';

const run = promisify(execFile);

/** The superuser the cluster's schema job and server log in as, as in docker-compose.yml. */
export const PG_USER = 'temporal';
/** Its password (compose's default); the server only listens on 127.0.0.1. */
export const PG_PASSWORD = 'temporal';

/** A running throwaway PostgreSQL. */
export interface Postgres {
  port: number;
  /** e.g. `15`. */
  version: string;
  dataDir: string;
  /** Runs one SQL statement with psql over TCP as PG_USER; returns the result rows, `|`-separated. */
  query(db: string, sql: string): Promise<string[]>;
  /**
   * Restarts it on the same data folder and port: `fast` is `pg_ctl restart -m fast` (sessions
   * ended, a checkpoint, a clean start); `kill` is `kill -9` of the postmaster, then a start, which
   * runs crash recovery from the WAL. Resolves once it accepts connections again.
   */
  restart(mode: PostgresRestartMode): Promise<void>;
  /** Fast shutdown; safe to call twice. */
  stop(): Promise<void>;
}

/** How `Postgres.restart` brings the server down. */
export type PostgresRestartMode = 'fast' | 'kill';

/** The newest `/usr/lib/postgresql/<version>/bin`, where Debian puts initdb and pg_ctl. */
function findPgBin(): { bin: string; version: string } {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    : [];
  const version = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (version === undefined) throw new Error(`no PostgreSQL under ${root}: run \`apt-get install -y postgresql\``);
  return { bin: path.join(root, version, 'bin'), version };
}

/** Runs a PostgreSQL server command, as `postgres` when we are root. */
async function asPostgres(command: string, args: readonly string[]): Promise<void> {
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  try {
    await run(file, argv);
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim() ?? '';
    throw new Error(`${path.basename(command)} failed: ${stderr || (err instanceof Error ? err.message : String(err))}`);
  }
}

/** Hands `file` (or folder) to the `postgres` user when we are root: initdb wants to own its folders. */
async function giveToPostgres(file: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  fs.chownSync(file, uid, gid);
}

/** Creates a cluster in `<dir>/pg` and starts it on a free 127.0.0.1 port; resolves once it accepts connections. */
export async function startPostgres(dir: string): Promise<Postgres> {
  const { bin, version } = findPgBin();
  const pgDir = path.join(dir, 'pg');
  const dataDir = path.join(pgDir, 'data');
  fs.mkdirSync(pgDir);
  // The temp folder is root's 0700; the postgres user must be able to reach its own folder inside.
  fs.chmodSync(dir, 0o711);
  await giveToPostgres(pgDir);
  const pwFile = path.join(pgDir, 'password');
  fs.writeFileSync(pwFile, `${PG_PASSWORD}\n`);
  await giveToPostgres(pwFile);
  await asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '-U', PG_USER, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-instructions']);
  const port = await freePort();
  // TCP on loopback only, and the socket in our folder, not /var/run/postgresql.
  const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${pgDir}`;
  const pgCtl = path.join(bin, 'pg_ctl');
  const startArgs = ['-D', dataDir, '-l', path.join(pgDir, 'postgres.log'), '-o', serverOptions, '-w'];
  await asPostgres(pgCtl, [...startArgs, 'start']);
  let stopped: Promise<void> | undefined;
  return {
    port,
    version,
    dataDir,
    query: async (db, sql) => {
      const args = ['-h', '127.0.0.1', '-p', String(port), '-U', PG_USER, '-d', db, '-tAc', sql];
      const { stdout } = await run(path.join(bin, 'psql'), args, { env: { ...process.env, PGPASSWORD: PG_PASSWORD } });
      return stdout.split('\n').filter((line) => line !== '');
    },
    restart: async (mode) => {
      if (mode === 'fast') return asPostgres(pgCtl, [...startArgs, '-m', 'fast', 'restart']);
      await killPostmaster(dataDir);
      await startAfterKill(() => asPostgres(pgCtl, [...startArgs, 'start']));
    },
    stop: () => (stopped ??= asPostgres(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop'])),
  };
}

/** Whether `pid` still runs: a zombie (killed, not yet reaped by whoever adopted it) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/\) Z /.test(stat);
}

/** `kill -9` of the postmaster (the first line of postmaster.pid); resolves once it is gone. */
async function killPostmaster(dataDir: string): Promise<void> {
  const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`postmaster.pid in ${dataDir} names no pid`);
  process.kill(pid, 'SIGKILL');
  while (alive(pid)) await sleep(20);
}

/**
 * Starts PostgreSQL after its postmaster was killed: its backends notice the postmaster's death and
 * exit on their own, but until the last one has, the old shared memory is still attached and a
 * new postmaster refuses to start, so the start is retried for a while.
 */
async function startAfterKill(start: () => Promise<void>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await start();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(250);
    }
  }
}
