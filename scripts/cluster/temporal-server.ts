/**
 * The Temporal server as one OS process running frontend, history, matching and worker — what
 * docker-compose.yml's single `temporal` container runs — and the `default` namespace, created the
 * way compose's namespace job does it, but through the gRPC API instead of the CLI.
 */
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Postgres } from './postgres';
import type { ServerConfig } from './server-config';

/** The services the process runs, each named by one `--service` flag. */
export const SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;

/** A running server process. */
export interface ServerProcess {
  pid: number;
  logFile: string;
  /** Whether it has exited (e.g. a fatal config or database error). */
  hasExited(): boolean;
  /** SIGTERM to its process group, SIGKILL after 15 s; safe to call twice. */
  stop(): Promise<void>;
  /** `kill -9` of its process group, as a crash would end it; resolves once it has exited. */
  kill9(): Promise<void>;
}

function lastLines(file: string, n: number): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n') : '(no log)';
}

/** Starts the server; its output goes to `<dir>/server.log`. */
export function startServerProcess(serverBinary: string, dir: string, config: ServerConfig): ServerProcess {
  const logFile = path.join(dir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const args = ['--root', '/', '--config', config.configDir, '--env', config.env, '--allow-no-auth', 'start', ...SERVICES.flatMap((s) => ['--service', s])];
  // Own process group, so stop() also reaches anything it forks.
  const child = spawn(serverBinary, args, { detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const pid = child.pid ?? -1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-pid, name);
    } catch {
      // already gone
    }
  };
  return {
    pid,
    logFile,
    hasExited: () => child.exitCode !== null || child.signalCode !== null,
    stop: () =>
      (stopped ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        signal('SIGTERM');
        const timer = setTimeout(() => signal('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      })()),
    kill9: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signal('SIGKILL');
      await exited;
    },
  };
}

/** `cluster_membership.role` values (persistence.ServiceType in the server's source). */
const ROLE_NAMES: Record<string, string> = { '1': 'frontend', '2': 'history', '3': 'matching', '4': 'worker', '5': 'internal-frontend' };

/**
 * Waits until every service has joined the membership ring, as the server itself records it in
 * PostgreSQL (cluster_membership), and returns the live roles by name. With `sinceMs`, only
 * sessions started since then count: after a crash, the dead process's rows stay live until they expire.
 */
export async function waitForServices(postgres: Postgres, server: ServerProcess, timeoutMs = 60_000, sinceMs = 0): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  // The columns are TIMESTAMP without a time zone, written in UTC.
  const since = `(to_timestamp(${Math.floor(sinceMs / 1000)}) AT TIME ZONE 'UTC')`;
  for (;;) {
    const sql = `SELECT DISTINCT role FROM cluster_membership WHERE record_expiry > now() AND session_start >= ${since} ORDER BY role`;
    const rows = await postgres.query('temporal', sql);
    const roles = rows.map((role) => ROLE_NAMES[role] ?? `role ${role}`);
    if (SERVICES.every((s) => roles.includes(s))) return roles;
    if (server.hasExited()) throw new Error(`the Temporal server exited during start-up; server log:\n${lastLines(server.logFile, 5)}`);
    if (Date.now() > deadline) throw new Error(`only ${roles.join(', ') || 'no services'} joined after ${timeoutMs / 1000} s; server log:\n${lastLines(server.logFile, 5)}`);
    await sleep(500);
  }
}

/**
 * Waits until the frontend answers and the `default` namespace exists and is served: registering it
 * fails until history and matching have joined the membership ring, so it is retried.
 */
export async function createDefaultNamespace(address: string, server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer yet';
  const retry = async (): Promise<void> => {
    if (server.hasExited()) throw new Error(`the Temporal server exited during start-up; server log:\n${lastLines(server.logFile, 5)}`);
    if (Date.now() > deadline) throw new Error(`Temporal at ${address} not ready after ${timeoutMs / 1000} s (${lastError}); server log:\n${lastLines(server.logFile, 5)}`);
    await sleep(500);
  };
  let connection: Connection | undefined;
  try {
    while (!connection) {
      connection = await Connection.connect({ address, connectTimeout: 2000 }).catch((err: unknown) => {
        lastError = err instanceof Error ? err.message : String(err);
        return undefined;
      });
      if (!connection) await retry();
    }
    for (let registered = false; !registered; ) {
      registered = await connection.workflowService
        .registerNamespace({ namespace: 'default', workflowExecutionRetentionPeriod: msToTs('1 day') })
        .then(
          () => true,
          (err: unknown) => {
            lastError = err instanceof Error ? err.message : String(err);
            return /already exists/i.test(lastError);
          },
        );
      if (!registered) await retry();
    }
    // The frontend learns of new namespaces from its cache, refreshed every few seconds.
    for (let served = false; !served; ) {
      served = await connection.workflowService.listWorkflowExecutions({ namespace: 'default', pageSize: 1 }).then(
        () => true,
        (err: unknown) => {
          lastError = err instanceof Error ? err.message : String(err);
          return false;
        },
      );
      if (!served) await retry();
    }
  } finally {
    await connection?.close();
  }
}
