/**
 * The schema job of docker-compose.yml (`temporal-schema-setup`), step for step: create the two
 * databases, then bring each schema from 0.0 to the newest version shipped with the server.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PG_PASSWORD, PG_USER, type Postgres } from './postgres';
import type { ServerBinaries } from './server-binaries';

const run = promisify(execFile);

/** The two databases and the schema folder (under schema/postgresql/v12) of each. */
const DATABASES = [
  { db: 'temporal', schema: 'temporal' },
  { db: 'temporal_visibility', schema: 'visibility' },
] as const;

async function sqlTool(binaries: ServerBinaries, port: number, args: string[]): Promise<void> {
  try {
    // Configured through the same variables as compose's admin-tools container.
    await run(binaries.sqlTool, args, {
      env: { ...process.env, SQL_PLUGIN: 'postgres12', SQL_HOST: '127.0.0.1', SQL_PORT: String(port), SQL_USER: PG_USER, SQL_PASSWORD: PG_PASSWORD },
    });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim() ?? '';
    throw new Error(`temporal-sql-tool ${args.join(' ')} failed: ${stderr || (err instanceof Error ? err.message : String(err))}`);
  }
}

/** Sets up both databases; returns `db@version` for each, e.g. `temporal@1.17`. */
export async function setUpSchemas(binaries: ServerBinaries, postgres: Postgres): Promise<string[]> {
  const versions: string[] = [];
  for (const { db, schema } of DATABASES) {
    const versioned = path.join(binaries.moduleDir, 'schema', 'postgresql', 'v12', schema, 'versioned');
    await sqlTool(binaries, postgres.port, ['--db', db, 'create-database']);
    await sqlTool(binaries, postgres.port, ['--db', db, 'setup-schema', '-v', '0.0']);
    await sqlTool(binaries, postgres.port, ['--db', db, 'update-schema', '-d', versioned]);
    // Read back, so the log line states what the database holds, not what we asked for.
    const [version] = await postgres.query(db, 'SELECT curr_version FROM schema_version');
    versions.push(`${db}@${version ?? '?'}`);
  }
  return versions;
}
