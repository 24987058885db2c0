/**
 * `npm start`: the whole host on the embedded default. Unless a Temporal address is configured it
 * finds or installs the Temporal CLI and runs a local dev server (persistence in .temporal/, Web
 * UI); without ANTHROPIC_API_KEY it runs the offline stand-in of Claude's Messages API, loudly
 * labelled. Then it runs the worker with the MCP servers of mcp.json. One line per component.
 *
 * Ctrl-C at any moment — while the CLI installs, the dev server starts, the worker is created or
 * runs — stops everything started so far and exits; so does closing its terminal (SIGHUP), and so
 * does SIGTERM. A dev server left running by an `npm start` that could not stop it (kill -9) is
 * stopped by the next one on the same data (src/temporal/dev-server-owner.ts).
 */
import * as path from 'node:path';
import { startOfflineStandIn } from './offline';
import { DEFAULTS, readSettings } from './config/settings';
import { startDevServer } from './temporal/dev-server';
import { ensureTemporalCli } from './temporal/install-temporal-cli';
import { runWorker, type ClaudeEndpoint } from './worker/run-worker';
import { installRuntimeLogger } from './worker/runtime-logger';

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

/** Runs until stopped; `cleanups` collects what to stop, in reverse order, whatever happens. */
async function run(stop: AbortSignal, cleanups: Array<() => Promise<void>>): Promise<void> {
  installRuntimeLogger();
  const settings = readSettings();
  let address = settings.temporalAddress;
  if (address === undefined) {
    const cli = await ensureTemporalCli(say);
    stop.throwIfAborted();
    const devServer = await startDevServer({
      cliPath: cli.path,
      dbFile: path.resolve('.temporal', 'temporal.db'),
      port: intFromEnv('TEMPORAL_DEV_PORT', DEFAULTS.devServerPort),
      uiPort: intFromEnv('TEMPORAL_DEV_UI_PORT', DEFAULTS.devServerUiPort),
      // The Web UI decodes payloads through this codec server (encryption: docs/encryption.md).
      ...(process.env.TEMPORAL_DEV_UI_CODEC_ENDPOINT ? { uiCodecEndpoint: process.env.TEMPORAL_DEV_UI_CODEC_ENDPOINT } : {}),
      signal: stop,
      // Once stopping, its complaints about the worker's cancelled polls are noise.
      log: (line) => {
        if (!stop.aborted) say(line);
      },
    });
    cleanups.push(async () => {
      await devServer.stop();
      say('Temporal dev server stopped.');
    });
    address = devServer.address;
    say(`Temporal: dev server at ${address} (data in .temporal/temporal.db)`);
    say(`Web UI:   ${devServer.uiUrl}/namespaces/${settings.namespace}/workflows`);
  } else {
    say(`Temporal: ${settings.temporal.description}`);
  }
  stop.throwIfAborted();
  let claude: ClaudeEndpoint;
  if (settings.anthropicApiKey) {
    claude = {
      apiKey: settings.anthropicApiKey,
      ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}),
      ...(settings.anthropicVersion ? { version: settings.anthropicVersion } : {}),
    };
    say(`Claude:   ${settings.anthropicBaseUrl ?? 'https://api.anthropic.com'}, default model ${settings.model}`);
  } else {
    const fake = await startOfflineStandIn();
    cleanups.push(() => fake.close());
    // It counts no tokens: the context guard estimates instead.
    claude = { apiKey: 'offline-stand-in', baseURL: fake.url, countTokens: false };
    banner([
      'ANTHROPIC_API_KEY is not set: Claude is replaced by an OFFLINE STAND-IN',
      `(a rule-based fake Messages API at ${fake.url}).`,
      "Its answers are not Claude's. Set ANTHROPIC_API_KEY to talk to Claude.",
    ]);
  }
  stop.throwIfAborted();
  say('Try:      npx mcp-host start --wait "北京今天天气怎么样"   (then: npx mcp-host chat; Ctrl-C here stops it all)');
  await runWorker(settings, address, claude, stop, say);
  say('Worker stopped.');
}

async function main(): Promise<number> {
  const stop = new AbortController();
  // A closed terminal fails every later write (EIO): output is lost, the stopping goes on.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  // SIGHUP: the terminal was closed (or the SSH session dropped). Its default action would end
  // this process at once and leave the dev server, in a session of its own, running.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // `on`, not `once`: a terminal's Ctrl-C reaches this process twice (directly, and relayed by
    // npm); a second signal without a handler would kill it before it stops what it started.
    process.on(signal, () => {
      if (stop.signal.aborted) return;
      say(`\n${signal}: stopping everything npm start started ...`);
      stop.abort();
    });
  }
  const cleanups: Array<() => Promise<void>> = [];
  let code = 0;
  try {
    await run(stop.signal, cleanups);
  } catch (err) {
    // Once stopping, an error is the interrupted start-up itself (an aborted wait, a closed
    // connection), not news for the user.
    if (!stop.signal.aborted) {
      say(`npm start: ${err instanceof Error ? err.message : String(err)}`);
      code = 1;
    }
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((err: unknown) => say(`npm start: while stopping: ${err instanceof Error ? err.message : String(err)}`));
    }
  }
  return code;
}

// Everything started has been stopped by now: exit even if a library still holds a handle, so an
// interrupted start-up can never leave this process running.
void main().then((code) => process.exit(code));
