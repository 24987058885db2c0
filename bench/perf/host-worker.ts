/**
 * The host's worker process for the performance benchmark: `createHostWorker` as `npm run worker`
 * runs it (this tree's source, through tsx; the workflow bundle prebuilt by the benchmark), with
 * the fake model and one stdio MCP server, `bench/fixtures/station-server.ts`.
 * Env: BENCH_ADDRESS, BENCH_TASK_QUEUE, BENCH_BUNDLE, BENCH_CLAUDE_URL, BENCH_TOOL_MS (the tool's
 * own latency), BENCH_SRC_ROOT (another tree whose src/ is measured, e.g. a worktree of an earlier
 * commit: its worker and activities; default this tree), BENCH_FAST_TOOLS=1 (the server is marked
 * `fast`: its calls run as local activities), BENCH_METRICS_PORT (the SDK's Prometheus metrics:
 * bench/perf/worker-metrics.ts). Prints "ready" once it polls; SIGTERM stops it.
 */
import * as path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type * as HostWorkerModule from '../../src/worker/create-host-worker';
import { metricsTelemetry } from './worker-metrics';
import { readTraceSettings } from '../../src/telemetry/trace-settings';
import { installTracing } from '../../src/telemetry/tracing';

const REPO_ROOT = path.resolve(__dirname, '../..');

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function main(): Promise<void> {
  const telemetryOptions = metricsTelemetry(process.env.BENCH_METRICS_PORT);
  Runtime.install({ logger: new DefaultLogger('ERROR'), ...(telemetryOptions ? { telemetryOptions } : {}) });
  const srcRoot = path.resolve(process.env.BENCH_SRC_ROOT || REPO_ROOT);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the measured tree is chosen at run time
  const { createHostWorker } = require(path.join(srcRoot, 'src/worker/create-host-worker')) as typeof HostWorkerModule;
  // The traced design: the standard OTEL_* settings, spans to the benchmark's Jaeger.
  const tracesUrl = process.env.BENCH_TRACES_URL;
  const tracing = tracesUrl
    ? installTracing(readTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: tracesUrl, OTEL_SERVICE_NAME: 'mcp-host-bench' }))
    : undefined;
  const host = await createHostWorker({
    address: required('BENCH_ADDRESS'),
    namespace: 'default',
    taskQueue: required('BENCH_TASK_QUEUE'),
    workflowBundlePath: required('BENCH_BUNDLE'),
    claude: { apiKey: 'sk-ant-bench-not-a-real-key', baseURL: required('BENCH_CLAUDE_URL') },
    mcpConfig: {
      mcpServers: {
        stations: {
          command: process.execPath,
          args: ['--import', 'tsx', path.join(REPO_ROOT, 'bench/fixtures/station-server.ts')],
          env: { STATION_DELAY_MS: process.env.BENCH_TOOL_MS ?? '0' },
          cwd: REPO_ROOT,
          ...(process.env.BENCH_FAST_TOOLS === '1' ? { fast: true } : {}),
        },
      },
    },
    log: (line, level) => {
      if (level !== 'info') process.stderr.write(`${line}\n`);
    },
  });
  process.on('SIGTERM', () => host.shutdown());
  const running = host.run();
  process.stdout.write('ready\n');
  await running;
  await tracing?.shutdown();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`host worker: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
