/**
 * `npm start`'s dev server with a codec endpoint for its Web UI (TEMPORAL_DEV_UI_CODEC_ENDPOINT →
 * `temporal server start-dev --ui-codec-endpoint`): the UI server hands that endpoint to every
 * browser in its settings, which is what makes the UI decode through `mcp-host codec-server`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startDevServer } from '../../src/temporal/dev-server';
import { findTemporalCli } from '../../src/temporal/find-temporal-cli';
import { freePort } from '../../src/temporal/free-port';

test('the dev server gives its Web UI the codec endpoint', async () => {
  const cli = findTemporalCli();
  if (!cli) throw new Error('no Temporal CLI (npm run setup)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-dev-codec-'));
  const endpoint = 'http://127.0.0.1:8888';
  const server = await startDevServer({
    cliPath: cli.path,
    dbFile: path.join(dir, 'temporal.db'),
    port: await freePort(),
    uiPort: await freePort(),
    uiCodecEndpoint: endpoint,
    log: () => undefined,
  });
  try {
    let settings: { Codec?: { Endpoint?: string } } = {};
    // The UI server may answer a moment after the frontend.
    for (let attempt = 0; attempt < 50 && settings.Codec?.Endpoint === undefined; attempt++) {
      settings = (await fetch(`${server.uiUrl}/api/v1/settings`)
        .then((r) => r.json())
        .catch(() => new Promise((resolve) => setTimeout(() => resolve({}), 200)))) as typeof settings;
    }
    expect(settings.Codec?.Endpoint).toBe(endpoint);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
