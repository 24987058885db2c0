/**
 * `npm run worker`: the worker alone, against the configured Temporal (TEMPORAL_ADDRESS and the
 * other TEMPORAL_* variables or a temporal.toml profile; default 127.0.0.1:7233). Needs
 * ANTHROPIC_API_KEY; for the offline stand-in use `npm start`.
 */
import { readSettings } from '../config/settings';
import { describeKeyring } from '../temporal/encryption-keys';
import { environmentKeyring } from '../temporal/environment-encryption';
import { payloadStoreDir } from '../temporal/payload-store/external-storage';
import { describePayloadStore, payloadStoreSetting } from '../temporal/payload-store/payload-store-setting';
import { installRuntimeLogger } from './runtime-logger';
import { runWorker } from './run-worker';

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<void> {
  const stop = new AbortController();
  // `on`, not `once`: Ctrl-C can arrive twice (directly and relayed by npm); the second must not kill the drain.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop.abort());
  installRuntimeLogger();
  const settings = readSettings();
  if (!settings.anthropicApiKey) {
    throw new Error('ANTHROPIC_API_KEY is not set (npm start runs an offline stand-in instead; `npm run worker` does not)');
  }
  say(`Temporal: ${settings.temporal.description}`);
  // Whether payloads are encrypted, and the key id (never a key); a malformed key fails here.
  say(describeKeyring(environmentKeyring()));
  // Where large payloads go (never a credential); a malformed MCP_HOST_PAYLOAD_STORE fails here.
  say(describePayloadStore(payloadStoreSetting(), payloadStoreDir()));
  say(`Claude: ${settings.anthropicBaseUrl ?? 'https://api.anthropic.com'}, default model ${settings.model}`);
  await runWorker(
    settings,
    undefined,
    {
      apiKey: settings.anthropicApiKey,
      ...(settings.anthropicBaseUrl ? { baseURL: settings.anthropicBaseUrl } : {}),
      ...(settings.anthropicVersion ? { version: settings.anthropicVersion } : {}),
    },
    stop.signal,
    say,
  );
}

main().then(
  // Everything is closed by now; exit even if a library left a handle open.
  () => process.exit(0),
  (err: unknown) => {
    say(`mcp-host worker: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
