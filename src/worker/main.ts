/**
 * `npm run worker`: the worker alone, against the Temporal server at TEMPORAL_ADDRESS
 * (default 127.0.0.1:7233). Needs ANTHROPIC_API_KEY; for the offline stand-in use `npm start`.
 */
import { readSettings } from '../config/settings';
import { runWorker } from './run-worker';

async function main(): Promise<void> {
  const settings = readSettings();
  if (!settings.anthropicApiKey) {
    throw new Error('ANTHROPIC_API_KEY is not set (npm start runs an offline stand-in instead; `npm run worker` does not)');
  }
  const stop = new AbortController();
  // `on`, not `once`: Ctrl-C can arrive twice (directly and relayed by npm/tsx); the second must not kill the drain.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop.abort());
  await runWorker(
    settings,
    settings.temporalAddress ?? '127.0.0.1:7233',
    { apiKey: settings.anthropicApiKey, ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}) },
    stop.signal,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`mcp-host worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
