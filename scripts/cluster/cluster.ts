/**
 * docker-compose.yml's Temporal topology without Docker: a PostgreSQL, the schema job, one server
 * process with all four services, and the namespace job — in a temp folder, on free loopback ports.
 * `startCluster` returns once workers can connect; `stop` leaves no process and no folder behind.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startPostgres, type Postgres, type PostgresRestartMode } from './postgres';
import { setUpSchemas } from './schema';
import { ensureServerBinaries, TEMPORAL_SERVER_VERSION } from './server-binaries';
import { writeServerConfig } from './server-config';
import { createDefaultNamespace, startServerProcess, waitForServices, type ServerProcess } from './temporal-server';

/** A running cluster. */
export interface Cluster {
  /** The frontend's gRPC address, what workers and clients use as TEMPORAL_ADDRESS. */
  address: string;
  namespace: 'default';
  postgresPort: number;
  /** e.g. `['temporal@1.17', 'temporal_visibility@1.10']`. */
  schemas: string[];
  /** The server process's pid (a new one after `startServer`). */
  readonly serverPid: number;
  /** The temp folder with PostgreSQL's data, the server's config and server.log. */
  dir: string;
  /** `kill -9` of the server's process group, as a crash would end it; resolves once it has exited. */
  killServer(): Promise<void>;
  /**
   * Starts the server again (after `killServer`) on the same config, ports and PostgreSQL; resolves
   * once all four services of the new process have joined the ring and the frontend serves `default`.
   */
  startServer(): Promise<void>;
  /**
   * Restarts PostgreSQL under the running server (`fast`: `pg_ctl restart -m fast`; `kill`:
   * `kill -9` of the postmaster, then a start with crash recovery); resolves once it accepts
   * connections. The server is left to reconnect by itself.
   */
  restartPostgres(mode: PostgresRestartMode): Promise<void>;
  /** Stops the server, then PostgreSQL, then removes the folder; safe to call twice. */
  stop(): Promise<void>;
}

/** How to start it. */
export interface ClusterOptions {
  /** One line per step; defaults to stderr. */
  log?: (line: string) => void;
  /** Keep the temp folder after stop, e.g. to read server.log. */
  keepDir?: boolean;
}

/** Starts the whole cluster; on any failure stops whatever had started and rethrows. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cluster-'));
  let postgres: Postgres | undefined;
  let server: ServerProcess | undefined;
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      await server?.stop();
      await postgres?.stop();
      if (!options.keepDir) fs.rmSync(dir, { recursive: true, force: true });
    })());
  try {
    const binaries = await ensureServerBinaries(log);
    postgres = await startPostgres(dir);
    log(`postgres ${postgres.version} up on 127.0.0.1:${postgres.port} (data in ${postgres.dataDir})`);
    const schemas = await setUpSchemas(binaries, postgres);
    log(`schema set up: ${schemas.join(', ')}`);
    const config = await writeServerConfig(dir, binaries.moduleDir, postgres.port);
    server = startServerProcess(binaries.server, dir, config);
    const roles = await waitForServices(postgres, server);
    log(`services up: ${roles.join(', ')} in one temporal-server v${TEMPORAL_SERVER_VERSION} process (pid ${server.pid}), per cluster_membership`);
    await createDefaultNamespace(config.frontendAddress, server);
    log('namespace: default registered and served');
    log(`addresses: frontend ${config.frontendAddress}, postgres 127.0.0.1:${postgres.port}, server log ${server.logFile}`);
    const started = { postgres, config, binary: binaries.server };
    return {
      address: config.frontendAddress,
      namespace: 'default',
      postgresPort: postgres.port,
      schemas,
      get serverPid() {
        return server?.pid ?? -1;
      },
      dir,
      killServer: async () => {
        await server?.kill9();
      },
      startServer: async () => {
        if (server && !server.hasExited()) throw new Error(`the Temporal server (pid ${server.pid}) is still running`);
        const at = Date.now();
        server = startServerProcess(started.binary, dir, started.config);
        await waitForServices(started.postgres, server, 60_000, at);
        await createDefaultNamespace(started.config.frontendAddress, server);
        log(`server started again (pid ${server.pid}) in ${((Date.now() - at) / 1000).toFixed(1)} s`);
      },
      restartPostgres: async (mode) => {
        const at = Date.now();
        await started.postgres.restart(mode);
        log(`postgres restarted (${mode === 'fast' ? 'pg_ctl restart -m fast' : 'kill -9 of the postmaster, then start'}) in ${((Date.now() - at) / 1000).toFixed(1)} s`);
      },
      stop,
    };
  } catch (err) {
    await stop().catch((stopErr: unknown) => log(`cleanup after a failed start also failed: ${String(stopErr)}`));
    throw err;
  }
}
