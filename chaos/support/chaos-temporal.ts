/**
 * The suite's own Temporal dev server: the project's `startDevServer` on a SQLite file in the run's
 * directory, so that a restart (scenario: server restart) keeps every conversation.
 */
import * as path from 'node:path';
import { startDevServer, type DevServer } from '../../src/temporal/dev-server';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { freePort } from '../../src/temporal/free-port';

/** A dev server that can be restarted on the same ports and database. */
export interface ChaosTemporal {
  address: string;
  cliPath: string;
  /** The server process's pid (changes on restart). */
  pid(): number;
  /** Stops the server (SIGTERM) and starts it again on the same file and ports; resolves once it answers. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the dev server with its database in `dir`. */
export async function startChaosTemporal(dir: string, log: (line: string) => void): Promise<ChaosTemporal> {
  const cli = findTemporalCli();
  if (!cli) throw new Error('no Temporal CLI found: run `npm run setup`, or set TEMPORAL_CLI_PATH');
  const options = { cliPath: cli.path, dbFile: path.join(dir, 'temporal.db'), port: await freePort(), uiPort: await freePort(), log };
  let server: DevServer | undefined = await startDevServer(options);
  return {
    address: server.address,
    cliPath: cli.path,
    pid: () => server?.pid ?? -1,
    restart: async () => {
      await server?.stop();
      server = undefined;
      server = await startDevServer(options);
    },
    stop: async () => {
      await server?.stop();
      server = undefined;
    },
  };
}
