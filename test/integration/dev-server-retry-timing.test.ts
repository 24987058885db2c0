/**
 * `npm start`'s dev server retries an activity lost with its worker as soon as the heartbeat
 * timeout and the retry policy's first interval have passed (src/temporal/server-tuning.ts). With
 * Temporal's default timer shift (1 s) the retry is scheduled at least a second after the timeout,
 * whatever the interval, once the attempt had heartbeated: that floor is what this tells apart.
 */
import { Client, Connection } from '@temporalio/client';
import { Context } from '@temporalio/activity';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startDevServer } from '../../src/temporal/dev-server';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { freePort } from '../../src/temporal/free-port';
import { STALL_HEARTBEAT_TIMEOUT_MS, STALL_RETRY_INTERVAL_MS, type StallActivities } from '../fixtures/stalled-attempt-workflow';

test('a stalled attempt is retried right after its heartbeat timeout and the first retry interval', async () => {
  const cli = findTemporalCli();
  if (!cli) throw new Error('no Temporal CLI (npm run setup)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-retry-timing-'));
  const server = await startDevServer({
    cliPath: cli.path,
    dbFile: path.join(dir, 'temporal.db'),
    port: await freePort(),
    uiPort: await freePort(),
    log: () => undefined,
  });
  const scheduledAt: number[] = [];
  let lastHeartbeatAt = 0;
  const activities: StallActivities = {
    async stallOnce() {
      const context = Context.current();
      const { attempt, currentAttemptScheduledTimestampMs } = context.info;
      scheduledAt[attempt - 1] = currentAttemptScheduledTimestampMs;
      if (attempt > 1) return;
      // The first attempt heartbeats for a while, then stops and outlives its heartbeat timeout, as
      // one whose worker was killed does.
      for (let beat = 0; beat < 6; beat++) {
        context.heartbeat();
        lastHeartbeatAt = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await new Promise((resolve) => setTimeout(resolve, STALL_HEARTBEAT_TIMEOUT_MS + 2000));
    },
  };
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const connection = await Connection.connect({ address: server.address });
  try {
    const taskQueue = `retry-timing-${randomUUID()}`;
    const worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('../fixtures/stalled-attempt-workflow'),
      activities,
      // Each heartbeat reaches the server at once (the SDK's default throttle is 80 % of the timeout).
      maxHeartbeatThrottleInterval: '50 milliseconds',
    });
    await worker.runUntil(
      new Client({ connection }).workflow.execute('stalledAttemptWorkflow', { taskQueue, workflowId: `retry-timing-${randomUUID()}` }),
    );
    expect(scheduledAt).toHaveLength(2);
    // The server runs on this machine: its clock is this process's.
    const afterTimeout = scheduledAt[1]! - lastHeartbeatAt - STALL_HEARTBEAT_TIMEOUT_MS;
    expect(afterTimeout).toBeGreaterThanOrEqual(STALL_RETRY_INTERVAL_MS - 20);
    // Measured here: 104-107 ms with the setting; 823-834 ms with Temporal's default shift (1 s).
    expect(afterTimeout).toBeLessThan(450);
  } finally {
    await connection.close();
    await nativeConnection.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
