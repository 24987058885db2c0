// The floor's worker process for the performance benchmark: a bare Temporal worker (plain Node, no
// transpiler, the SDK's default data converter) running bench/perf/floor-workflows.ts from a
// prebuilt bundle, whose one activity waits the milliseconds it is given (none: it returns at once).
// Env: BENCH_ADDRESS, BENCH_TASK_QUEUE, BENCH_BUNDLE, BENCH_METRICS_PORT (the SDK's Prometheus metrics,
// in ms, as bench/perf/worker-metrics.ts reads them). Prints "ready" once it polls; SIGTERM stops it.
'use strict';
const { setTimeout } = require('node:timers');
const { DefaultLogger, NativeConnection, Runtime, Worker } = require('@temporalio/worker');

async function main() {
  const port = process.env.BENCH_METRICS_PORT;
  Runtime.install({
    logger: new DefaultLogger('ERROR'),
    ...(port ? { telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}`, useSecondsForDurations: false } } } } : {}),
  });
  const connection = await NativeConnection.connect({ address: process.env.BENCH_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: 'default',
    taskQueue: process.env.BENCH_TASK_QUEUE,
    workflowBundle: { codePath: process.env.BENCH_BUNDLE },
    // A step of 0 ms returns at once: an empty activity. A timer of 0 ms would still wait for the
    // next turn of the event loop's timers, about 1 ms per activity that the floor would add.
    activities: {
      step: async (ms) => {
        if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
      },
    },
  });
  process.on('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  process.stdout.write('ready\n');
  await running;
  await connection.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`floor worker: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
