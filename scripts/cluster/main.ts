/**
 * `npx tsx scripts/cluster/main.ts`: starts the Postgres-backed cluster and keeps it up until
 * Ctrl-C (or SIGTERM), then stops everything. `--check` stops it again as soon as it is up.
 * `--build` (`npm run setup:cluster`) only makes sure the server binaries are in the cache, building
 * them with Go when missing, so a cold machine builds outside any test's time limit.
 */
import { startCluster } from './cluster';
import { ensureServerBinaries, serverBinDir, TEMPORAL_SERVER_VERSION } from './server-binaries';

async function main(): Promise<void> {
  if (process.argv.includes('--build')) {
    const started = Date.now();
    await ensureServerBinaries((line) => process.stderr.write(`${line}\n`));
    process.stderr.write(`temporal-server v${TEMPORAL_SERVER_VERSION} and its SQL tool in ${serverBinDir()} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    return;
  }
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
