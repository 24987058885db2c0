/**
 * `npm start`: the whole host on the embedded default. Without TEMPORAL_ADDRESS it builds or finds
 * the Temporal CLI and runs a local dev server (persistence in .temporal/, Web UI); without
 * ANTHROPIC_API_KEY it runs the offline stand-in of Claude's Messages API, loudly labelled. Then it
 * runs the worker with the MCP servers of mcp.json. Ctrl-C stops everything it started.
 */
import * as path from 'node:path';
import { startOfflineStandIn, type MessagesApiServer } from './offline';
import { DEFAULTS, readSettings } from './config/settings';
import { startDevServer, type DevServer } from './temporal/dev-server';
import { ensureTemporalCli } from './temporal/install-temporal-cli';
import { runWorker, type ClaudeEndpoint } from './worker/run-worker';

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function banner(lines: string[]): void {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  say('*'.repeat(width));
  for (const line of lines) say(`* ${line.padEnd(width - 4)} *`);
  say('*'.repeat(width));
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name} must be a port number, got "${raw}"`);
  return value;
}

async function main(): Promise<void> {
  const settings = readSettings();
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // `on`, not `once`: a terminal's Ctrl-C reaches this process twice (directly, and relayed by
    // npm/tsx); a second signal without a handler would kill it before it stops what it started.
    process.on(signal, () => {
      if (stop.signal.aborted) return;
      say(`\n${signal}: stopping the worker, then everything npm start started ...`);
      stop.abort();
    });
  }
  let devServer: DevServer | undefined;
  let fake: MessagesApiServer | undefined;
  try {
    let address = settings.temporalAddress;
    if (address === undefined) {
      const cli = await ensureTemporalCli(say);
      devServer = await startDevServer({
        cliPath: cli.path,
        dbFile: path.resolve('.temporal', 'temporal.db'),
        port: intFromEnv('TEMPORAL_DEV_PORT', DEFAULTS.devServerPort),
        uiPort: intFromEnv('TEMPORAL_DEV_UI_PORT', DEFAULTS.devServerUiPort),
      });
      address = devServer.address;
      say(`Temporal dev server: ${address} (data in .temporal/temporal.db, pid ${devServer.pid})`);
      say(`Temporal Web UI:     ${devServer.uiUrl}/namespaces/${settings.namespace}/workflows`);
    } else {
      say(`Temporal server: ${address} (TEMPORAL_ADDRESS)`);
    }
    let claude: ClaudeEndpoint;
    if (settings.anthropicApiKey) {
      claude = { apiKey: settings.anthropicApiKey, ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}) };
      say(`Claude: ${settings.anthropicBaseUrl ?? 'https://api.anthropic.com'} with model ${settings.model}`);
    } else {
      fake = await startOfflineStandIn();
      claude = { apiKey: 'offline-stand-in', baseURL: fake.url };
      banner([
        'ANTHROPIC_API_KEY is not set: Claude is replaced by an OFFLINE STAND-IN',
        `(a rule-based fake Messages API at ${fake.url}).`,
        'Its answers are not Claude\'s. Set ANTHROPIC_API_KEY to talk to Claude.',
      ]);
    }
    say(`Try: npx mcp-host start --wait "北京今天天气怎么样"   (then: npx mcp-host chat)`);
    await runWorker(settings, address, claude, stop.signal);
  } finally {
    await fake?.close();
    if (devServer) {
      await devServer.stop();
      say('Temporal dev server stopped.');
    }
  }
}

main().catch((err: unknown) => {
  say(`npm start: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
