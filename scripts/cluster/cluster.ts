/**
 * docker-compose.yml's Temporal topology without Docker: a PostgreSQL, the schema job, one server
 * process with all four services, and the namespace job — in a temp folder, on free loopback ports.
 * `startCluster` returns once workers can connect; `stop` leaves no process and no folder behind.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startPostgres, type Postgres } from './postgres';
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
  serverPid: number;
  /** The temp folder with PostgreSQL's data, the server's config and server.log. */
  dir: string;
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
    return {
      address: config.frontendAddress,
      namespace: 'default',
      postgresPort: postgres.port,
      schemas,
      serverPid: server.pid,
      dir,
      stop,
    };
  } catch (err) {
    await stop().catch((stopErr: unknown) => log(`cleanup after a failed start also failed: ${String(stopErr)}`));
    throw err;
  }
}
