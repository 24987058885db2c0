/**
 * `npm start`'s dev server keeps routine warnings off the terminal (issue 31, "quieter npm start"):
 * the Web UI's history request makes the real server warn "GetHistory page size is larger than
 * threshold"; that line lands in `<db>.log` and the terminal gets one line saying where such lines
 * go, once.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { devServerLogFile, startDevServer } from '../../src/temporal/dev-server';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { freePort } from '../../src/temporal/free-port';

test('routine dev-server warnings go to the log file, not the terminal', async () => {
  const cli = findTemporalCli();
  if (!cli) throw new Error('no Temporal CLI (npm run setup)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-dev-log-'));
  const dbFile = path.join(dir, 'temporal.db');
  const terminal: string[] = [];
  const server = await startDevServer({ cliPath: cli.path, dbFile, port: await freePort(), uiPort: await freePort(), log: (line) => terminal.push(line) });
  const connection = await Connection.connect({ address: server.address });
  try {
    const workflowId = 'dev-server-log';
    await new Client({ connection }).workflow.start('nobodyRunsThis', { workflowId, taskQueue: 'nobody-polls' });
    const history = `${server.uiUrl}/api/v1/namespaces/default/workflows/${workflowId}/history?maximumPageSize=1000`;
    const logged = (): string => (fs.existsSync(devServerLogFile(dbFile)) ? fs.readFileSync(devServerLogFile(dbFile), 'utf8') : '');
    // The UI server may answer a moment after the frontend; each request warns again.
    for (let attempt = 0; attempt < 100 && !logged().includes('GetHistory page size is larger than threshold'); attempt++) {
      await fetch(history).then((r) => r.arrayBuffer()).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (let n = 0; n < 3; n++) await fetch(history).then((r) => r.arrayBuffer());
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(logged().match(/GetHistory page size is larger than threshold/g)?.length).toBeGreaterThanOrEqual(4);
    expect(terminal.filter((line) => line.includes('GetHistory page size'))).toEqual([]);
    expect(terminal.filter((line) => line.includes('routine warnings'))).toEqual([
      `[temporal] routine warnings (slow calls that wait for a turn, large history pages for the Web UI) go only to ${devServerLogFile(dbFile)}`,
    ]);
  } finally {
    await connection.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
