/**
 * How the worker, the CLI and `npm start` reach Temporal, resolved once by the SDK's own loader
 * (`@temporalio/envconfig`) from the variables and the `temporal.toml` profiles the `temporal` CLI
 * reads: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_PROFILE,
 * TEMPORAL_CONFIG_FILE. Both SDK connections take their options from here, so they can never
 * disagree about TLS or credentials.
 */
import type { ConnectionOptions, TLSConfig } from '@temporalio/client';
import { loadClientConfigProfile, toClientOptions, type ClientConfigProfile } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import * as fs from 'node:fs';
import { describeConnection, type ConnectionSummary, type TlsMode } from './describe-connection';
import { temporalConfigFile } from './temporal-config-file';

/** Where the CLI and the worker connect when nothing names an address: the dev server `npm start` runs. */
export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';
/** The namespace when neither TEMPORAL_NAMESPACE nor the profile names one. */
export const DEFAULT_TEMPORAL_NAMESPACE = 'default';

/**
 * grpc-js receives at most 4 MB per message by default; a long conversation's history or messages
 * query can be larger, so clients raise it to Temporal's own ceiling (the `grpc.` prefix is required).
 * Reconnecting: grpc-js waits 1 s, 1.6 s, 2.6 s, 4.1 s … (up to 2 min) between attempts, so a
 * command started while the server restarts (down 2–3 s, the chaos suite's server-restart) made
 * its next attempt after its 5 s connect deadline and failed ("no gRPC answer in time"); at most
 * 1 s between attempts, it connects within a second of the server's return.
 */
const CLIENT_CHANNEL_ARGS = {
  'grpc.max_receive_message_length': 128 * 1024 * 1024,
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 1000,
};

/** The parts of a resolved configuration; secrets included, so never logged as such. */
interface ResolvedParts {
  address: string;
  addressConfigured: boolean;
  namespace: string;
  tls: TLSConfig | undefined;
  apiKey: string | undefined;
  metadata: Record<string, string> | undefined;
  /** What the description is made of (private: inline TLS data may be in it). */
  summary: ConnectionSummary;
}

/**
 * A resolved Temporal connection: address, namespace, and the options of both SDK connections.
 * The API key and key material live in private fields, so logging or serialising the object (or the
 * settings that hold it) cannot leak them; `description` is the printable summary.
 */
export class TemporalConnectionConfig {
  /** `host:port` of the frontend. */
  readonly address: string;
  /** Whether TEMPORAL_ADDRESS or the profile named the address; `npm start` runs its own dev server only when not. */
  readonly addressConfigured: boolean;
  readonly namespace: string;
  /** plaintext, TLS (server authenticated) or mTLS (client certificate too). */
  readonly tlsMode: TlsMode;
  readonly usesApiKey: boolean;
  /** One line for start-up output: address, namespace, TLS, where it came from; never a secret. */
  readonly description: string;
  readonly #tls: TLSConfig | undefined;
  readonly #apiKey: string | undefined;
  readonly #metadata: Record<string, string> | undefined;
  readonly #summary: ConnectionSummary;

  constructor(parts: ResolvedParts) {
    this.address = parts.address;
    this.addressConfigured = parts.addressConfigured;
    this.namespace = parts.namespace;
    this.tlsMode = tlsModeOf(parts.tls);
    this.usesApiKey = parts.apiKey !== undefined;
    this.description = describeConnection(parts.summary);
    this.#tls = parts.tls;
    this.#apiKey = parts.apiKey;
    this.#metadata = parts.metadata;
    this.#summary = parts.summary;
  }

  /** Options of `@temporalio/client`'s `Connection.connect`. */
  clientOptions(): ConnectionOptions {
    return { ...this.#common(), channelArgs: { ...CLIENT_CHANNEL_ARGS } };
  }

  /** Options of `@temporalio/worker`'s `NativeConnection.connect`: the same TLS and credentials as the client's. */
  nativeOptions(): NativeConnectionOptions {
    return this.#common();
  }

  /** The TLS settings, for the connection diagnosis only (it repeats the handshake with Node's `tls`). */
  tlsSettings(): TLSConfig | undefined {
    return this.#tls;
  }

  /**
   * The same TLS, credentials and namespace at another address: the dev server `npm start` runs, or
   * an address a library caller passes. TLS settings are kept, so a profile's mTLS is never silently
   * dropped; a plaintext dev server behind TLS settings fails with a line that says so.
   */
  withAddress(address: string, origin: string): TemporalConnectionConfig {
    if (address === this.address) return this;
    return new TemporalConnectionConfig({
      address,
      addressConfigured: true,
      namespace: this.namespace,
      tls: this.#tls,
      apiKey: this.#apiKey,
      metadata: this.#metadata,
      summary: { ...this.#summary, address, origin },
    });
  }

  /** What `JSON.stringify` shows: the printable fields only. */
  toJSON(): Record<string, unknown> {
    return { address: this.address, namespace: this.namespace, tlsMode: this.tlsMode, usesApiKey: this.usesApiKey, description: this.description };
  }

  #common(): ConnectionOptions & NativeConnectionOptions {
    return {
      address: this.address,
      // Always explicit: `undefined` with an API key would make the SDK turn TLS on again after
      // TEMPORAL_TLS=false (e.g. an API key through a local plaintext proxy).
      tls: this.#tls ? withBuffers(this.#tls) : false,
      ...(this.#apiKey !== undefined ? { apiKey: this.#apiKey } : {}),
      ...(this.#metadata !== undefined ? { metadata: { ...this.#metadata } } : {}),
    };
  }
}

function tlsModeOf(tls: TLSConfig | undefined): TlsMode {
  if (!tls) return 'plaintext';
  return tls.clientCertPair ? 'mTLS' : 'TLS';
}

/** TLS settings with Buffers (what grpc-js and the native bridge take), copied so no caller can alter the config's. */
function withBuffers(tls: TLSConfig): TLSConfig {
  return {
    ...(tls.serverNameOverride !== undefined ? { serverNameOverride: tls.serverNameOverride } : {}),
    ...(tls.serverRootCACertificate ? { serverRootCACertificate: Buffer.from(tls.serverRootCACertificate) } : {}),
    ...(tls.clientCertPair
      ? { clientCertPair: { crt: Buffer.from(tls.clientCertPair.crt), key: Buffer.from(tls.clientCertPair.key) } }
      : {}),
  };
}

/**
 * The environment as envconfig should see it: empty values dropped, since `KEY=` (as Compose
 * writes `${TEMPORAL_API_KEY:-}`) means "not set" to a user, while envconfig would take an empty API
 * key and turn TLS on for it. `TEMPORAL_GRPC_META_*` keep theirs: there, empty means "remove the header".
 */
function nonEmptyEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (value.trim() !== '' || key.startsWith('TEMPORAL_GRPC_META_')) out[key] = key.startsWith('TEMPORAL_GRPC_META_') ? value : value.trim();
  }
  return out;
}

function hasValues(profile: ClientConfigProfile): boolean {
  return Object.keys(profile).length > 0;
}

/** Normalises envconfig's `tls` (object, true, false or undefined; true also for an API key) the way the SDK does. */
function normaliseTls(tls: TLSConfig | boolean | null | undefined): TLSConfig | undefined {
  if (tls === true) return {};
  return tls ? withBuffers(tls) : undefined;
}

/**
 * Resolves the connection from `env` (default: the process environment) and the `temporal.toml`
 * it points at (TEMPORAL_CONFIG_FILE, else the user's default file when it exists). Environment
 * variables override the profile's values, as in the `temporal` CLI. Throws one line when the
 * settings cannot be used: a TEMPORAL_CONFIG_FILE or certificate file that does not exist, an
 * unknown profile, a malformed file.
 */
export function loadConnectionConfig(env: NodeJS.ProcessEnv = process.env): TemporalConnectionConfig {
  const vars = nonEmptyEnv(env);
  const file = temporalConfigFile(vars);
  if (file?.explicit && !fs.existsSync(file.path)) {
    // envconfig treats a missing file as an empty one; a path the user named must not be ignored.
    throw new Error(`Temporal connection settings: TEMPORAL_CONFIG_FILE=${file.path} does not exist`);
  }
  const profileName = vars.TEMPORAL_PROFILE ?? 'default';
  let merged: ClientConfigProfile;
  let fromEnv: ClientConfigProfile;
  let fromFile: ClientConfigProfile;
  let tls: TLSConfig | undefined;
  let apiKey: string | undefined;
  let metadata: Record<string, string> | undefined;
  try {
    merged = loadClientConfigProfile({ overrideEnvVars: vars });
    fromEnv = loadClientConfigProfile({ overrideEnvVars: vars, disableFile: true });
    fromFile = loadClientConfigProfile({ overrideEnvVars: vars, disableEnv: true });
    const options = toClientOptions(merged).connectionOptions;
    tls = normaliseTls(options.tls);
    apiKey = options.apiKey;
    metadata = merged.grpcMeta && Object.keys(merged.grpcMeta).length > 0 ? merged.grpcMeta : undefined;
  } catch (err) {
    // Not `instanceof Error`: fs errors can come from another realm (a test VM) and still carry a message.
    const raw = err !== null && typeof err === 'object' && 'message' in err && typeof err.message === 'string' ? err.message : String(err);
    const message = raw.split('\n')[0] ?? '';
    const where = file && fs.existsSync(file.path) ? ` (profile "${profileName}" of ${file.path})` : '';
    throw new Error(`Temporal connection settings${where}: ${message}`);
  }
  const address = merged.address ?? DEFAULT_TEMPORAL_ADDRESS;
  const namespace = merged.namespace ?? DEFAULT_TEMPORAL_NAMESPACE;
  const origins = [
    ...(hasValues(fromEnv) ? ['environment'] : []),
    ...(hasValues(fromFile) ? [`profile "${profileName}" of ${file?.path ?? 'temporal.toml'}`] : []),
  ];
  return new TemporalConnectionConfig({
    address,
    addressConfigured: merged.address !== undefined,
    namespace,
    tls,
    apiKey,
    metadata,
    summary: {
      address,
      namespace,
      tlsMode: tlsModeOf(tls),
      apiKey: apiKey !== undefined,
      ...(merged.tls ? { tlsFiles: merged.tls } : {}),
      origin: origins.length > 0 ? origins.join(' + ') : 'defaults',
    },
  });
}
