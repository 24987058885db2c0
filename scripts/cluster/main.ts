/**
 * `npx tsx scripts/cluster/main.ts`: starts the Postgres-backed cluster and keeps it up until
 * Ctrl-C (or SIGTERM), then stops everything. `--check` stops it again as soon as it is up.
 */
import { startCluster } from './cluster';

async function main(): Promise<void> {
  const cluster = await startCluster();
  if (process.argv.includes('--check')) {
    await cluster.stop();
    process.stderr.write('stopped: server and postgres down, temp folder removed\n');
    return;
  }
  process.stderr.write(`TEMPORAL_ADDRESS=${cluster.address} npm run worker   # in another shell; Ctrl-C here stops the cluster\n`);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  await cluster.stop();
  process.stderr.write('stopped: server and postgres down, temp folder removed\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`cluster: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
