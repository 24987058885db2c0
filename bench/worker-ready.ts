/**
 * Worker ready time: from spawning the worker process to its first workflow-task poll reaching
 * the server (seen with DescribeTaskQueue), for the compiled worker with the prebuilt bundle
 * (`node dist/worker/main.js`, what `npm run worker` and the image run) against the worker run
 * from source, which bundles the workflows with webpack at start (`node --import tsx
 * src/worker/main.ts`, what `npm run worker` ran before the build). Alternating runs, medians.
 *
 *   npx tsx bench/worker-ready.ts          # TEMPORAL_ADDRESS: a running server; default: one is started
 *   BENCH_REPEAT=7 npx tsx bench/worker-ready.ts
 *   READY_BEFORE_ROOT=/tmp/before READY_SKIP_SOURCE=1 npx tsx bench/worker-ready.ts   # another tree's build as the baseline
 *
 * The machine's load average is printed before and after: on a shared machine only the ratios of
 * one run compare.
 */
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { findTemporalCli } from '../src/temporal/find-temporal-cli';
import { median } from './median';
import { measureReady } from './perf/ready-time';

const REPO_ROOT = path.resolve(__dirname, '..');

/** How a worker is started. */
interface WorkerLaunch {
  label: string;
  args: string[];
}

/** The launches compared; the first is the baseline of the ratios. */
const BEFORE_ROOT = process.env.READY_BEFORE_ROOT;
const LAUNCHES: readonly WorkerLaunch[] = [
  ...(process.env.READY_SKIP_SOURCE ? [] : [{ label: 'from source (tsx, bundles at start)', args: ['--import', 'tsx', path.join(REPO_ROOT, 'src/worker/main.ts')] }]),
  ...(BEFORE_ROOT ? [{ label: `compiled, ${path.basename(BEFORE_ROOT)}`, args: [path.join(path.resolve(BEFORE_ROOT), 'dist/worker/main.js')] }] : []),
  { label: 'compiled, prebuilt bundle', args: [path.join(REPO_ROOT, 'dist/worker/main.js')] },
];

function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(', ');
}

/** Spawns one worker and returns the milliseconds until its first poll is seen; then stops it. */
function measureLaunch(connection: Connection, address: string, launch: WorkerLaunch): Promise<number> {
  const taskQueue = `ready-${randomUUID()}`;
  return measureReady(connection, launch.args, {
    TEMPORAL_ADDRESS: address,
    MCP_HOST_TASK_QUEUE: taskQueue,
    MCP_CONFIG: path.join(REPO_ROOT, 'mcp.json'),
    ANTHROPIC_API_KEY: 'sk-ant-bench-not-a-real-key',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  }, taskQueue);
}

async function main(): Promise<void> {
  const repeat = Number(process.env.BENCH_REPEAT ?? 5);
  let env: TestWorkflowEnvironment | undefined;
  let address = process.env.TEMPORAL_ADDRESS;
  if (!address) {
    const cli = findTemporalCli();
    if (!cli) throw new Error('no Temporal CLI: run `npm run setup`');
    env = await TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path: cli.path }, ip: '127.0.0.1' } });
    address = env.address;
  }
  const connection = await Connection.connect({ address });
  process.stderr.write(`  load average ${loadAverage()} at the start (${os.cpus().length} cores)\n`);
  try {
    const runs = new Map<string, number[]>(LAUNCHES.map((l) => [l.label, []]));
    for (let i = 1; i <= repeat; i++) {
      for (const launch of LAUNCHES) {
        const ms = await measureLaunch(connection, address, launch);
        runs.get(launch.label)?.push(ms);
        process.stderr.write(`  run ${i}/${repeat}  ${launch.label.padEnd(38)} ${(ms / 1000).toFixed(2)} s\n`);
      }
    }
    const baseline = median(runs.get(LAUNCHES[0]?.label ?? '') ?? []);
    process.stderr.write(`  load average ${loadAverage()} at the end\n`);
    console.log(`| worker | ready (median) | runs | ratio to ${LAUNCHES[0]?.label ?? ''} |\n|---|---:|---:|---:|`);
    for (const launch of LAUNCHES) {
      const values = runs.get(launch.label) ?? [];
      const m = median(values);
      console.log(`| ${launch.label} | ${(m / 1000).toFixed(2)} s | ${values.length} | ${(m / baseline).toFixed(2)}× |`);
    }
  } finally {
    await connection.close();
    await env?.teardown();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
