/**
 * `mcp-host codec-server`: serves this project's codecs (gzip, AES-256-GCM with the keys of
 * `MCP_HOST_ENCRYPTION_*`) and its external payload store to the Web UI and the `temporal` CLI,
 * until SIGINT or SIGTERM. See src/temporal/codec-server.ts and docs/encryption.md.
 */
import { DEFAULTS } from '../config/settings';
import { startCodecServer, DEFAULT_CODEC_SERVER_PORT, type CodecServer } from '../temporal/codec-server';
import { CompressionCodec } from '../temporal/compression-codec';
import { EncryptionCodec } from '../temporal/encryption-codec';
import { describeKeyring, ENCRYPTION_ENV } from '../temporal/encryption-keys';
import { environmentKeyring } from '../temporal/environment-encryption';
import { createExternalStorage, payloadStoreDir } from '../temporal/payload-store/external-storage';
import { describePayloadStore, payloadStoreSetting } from '../temporal/payload-store/payload-store-setting';

/** How to run it. */
export interface CodecServerCommandOptions {
  port?: number;
  host?: string;
  /** Browser origins allowed; default the Web UI of `npm start` (127.0.0.1 and localhost, `TEMPORAL_DEV_UI_PORT`). */
  webUiOrigins?: readonly string[];
  out: (line: string) => void;
  /** Stops the server (default: SIGINT or SIGTERM). */
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** The Web UI origins of the local dev server. */
export function defaultWebUiOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const port = env.TEMPORAL_DEV_UI_PORT !== undefined && env.TEMPORAL_DEV_UI_PORT !== '' ? env.TEMPORAL_DEV_UI_PORT : String(DEFAULTS.devServerUiPort);
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** Checks an origin given on the command line: `scheme://host[:port]`, nothing more. */
function checkOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`--web-ui-origin ${JSON.stringify(origin)} is not a URL (e.g. http://127.0.0.1:8233)`);
  }
  if (url.origin === 'null' || origin.replace(/\/+$/, '') !== url.origin) {
    throw new Error(`--web-ui-origin ${JSON.stringify(origin)} must be an origin, scheme://host[:port] (e.g. http://127.0.0.1:8233)`);
  }
  return url.origin;
}

/** Runs the codec server until the signal; resolves once it is closed. */
export async function runCodecServer(options: CodecServerCommandOptions): Promise<void> {
  const env = options.env ?? process.env;
  const keyring = environmentKeyring(env);
  // The store the workers write to (the directory or S3, from the same variables); a malformed setting fails here.
  const store = payloadStoreSetting(env);
  if (keyring.keys.size === 0) {
    throw new Error(`no encryption key: set ${ENCRYPTION_ENV.key} (and ${ENCRYPTION_ENV.keyId}), the same as the workers', to decode their payloads`);
  }
  const origins = (options.webUiOrigins !== undefined && options.webUiOrigins.length > 0 ? options.webUiOrigins : defaultWebUiOrigins(env)).map(checkOrigin);
  const server: CodecServer = await startCodecServer({
    // The data converter's codecs, with the keyring checked above (the same order: gzip, then encryption).
    codecs: [new CompressionCodec(), new EncryptionCodec(keyring)],
    externalStorage: createExternalStorage(payloadStoreDir(env), env),
    allowedOrigins: origins,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? DEFAULT_CODEC_SERVER_PORT,
  });
  options.out(`codec server on ${server.url} (${describeKeyring(keyring)}); browsers allowed from ${origins.join(', ')}`);
  options.out(describePayloadStore(store, payloadStoreDir(env)));
  options.out(`Web UI: its Data Encoder setting → ${server.url}, or a dev server started with --ui-codec-endpoint ${server.url}; temporal CLI: --codec-endpoint ${server.url}`);
  options.out('whoever reaches this server reads every conversation; Ctrl-C stops it');
  const stop = options.signal ?? signalStop();
  await new Promise<void>((resolve) => {
    if (stop.aborted) resolve();
    else stop.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
}

function signalStop(): AbortSignal {
  const controller = new AbortController();
  for (const name of ['SIGINT', 'SIGTERM'] as const) process.once(name, () => controller.abort());
  return controller.signal;
}
