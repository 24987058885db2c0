/**
 * `mcp-host codec-server`: Temporal's remote codec protocol over HTTP, for the Web UI (its "Data
 * Encoder" / `--ui-codec-endpoint`) and the `temporal` CLI (`--codec-endpoint`). `POST /encode` and
 * `POST /decode` (also under a namespace segment, `/{namespace}/decode`) take and answer
 * `{"payloads":[{"metadata":{"k":"<base64>"},"data":"<base64>"}]}` (proto3 JSON: bytes in base64).
 * Decoding runs this project's codecs in reverse (decrypt, then gunzip) and reads a payload that
 * went to the external payload store back from it, so the UI shows the plaintext it could not read
 * from the history; encoding compresses and encrypts as a worker would. Whoever reaches this server
 * reads every conversation, so it binds 127.0.0.1 unless told otherwise, and a browser may call it
 * only from the Web UI's origins (CORS; a request with another `Origin` is refused).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExternalStorage, Payload, PayloadCodec } from '@temporalio/common';
import { StorageDriverClaim } from '@temporalio/common';

/** What the codec server serves with. */
export interface CodecServerOptions {
  /** The codecs, in encoding order (this project's: gzip, then encryption). */
  codecs: readonly PayloadCodec[];
  /** Where payloads kept outside the history are read back from (decode only). */
  externalStorage?: ExternalStorage;
  /** Browser origins allowed to call (the Web UI's, e.g. `http://127.0.0.1:8233`). */
  allowedOrigins: readonly string[];
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8888; 0 for any free port. */
  port?: number;
  /** Where a payload that could not be decoded is reported (default: stderr). */
  log?: (line: string) => void;
}

/** A running codec server. */
export interface CodecServer {
  /** `http://host:port`: the endpoint to give the Web UI and the CLI. */
  readonly url: string;
  close(): Promise<void>;
}

/** The default port of `mcp-host codec-server`. */
export const DEFAULT_CODEC_SERVER_PORT = 8888;
/** Bodies larger than this are refused (a batch of the UI's payloads is far smaller). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const ALLOWED_HEADERS = 'Content-Type,X-Namespace,Authorization';

/** One payload as proto3 JSON. */
interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

const REFERENCE_ENCODING = 'json/protobuf';
const REFERENCE_TYPE = 'temporal.api.sdk.v1.ExternalStorageReference';

function fromJson(json: JsonPayload): Payload {
  if (typeof json !== 'object' || json === null) throw new TypeError('a payload is not an object');
  const metadata: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(json.metadata ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`metadata "${key}" is not a base64 string`);
    metadata[key] = new Uint8Array(Buffer.from(value, 'base64'));
  }
  if (json.data !== undefined && typeof json.data !== 'string') throw new TypeError('data is not a base64 string');
  return { metadata, data: new Uint8Array(Buffer.from(json.data ?? '', 'base64')) };
}

function toJson(payload: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {})) metadata[key] = Buffer.from(value).toString('base64');
  return { metadata, data: Buffer.from(payload.data ?? []).toString('base64') };
}

const metadataText = (payload: Payload, key: string): string | undefined => {
  const value = payload.metadata?.[key];
  return value ? Buffer.from(value).toString('utf8') : undefined;
};

/** The stored payload a reference points to, or the reference itself when the store cannot give it. */
async function dereference(payload: Payload, storage: ExternalStorage | undefined): Promise<Payload> {
  if (!storage || metadataText(payload, 'encoding') !== REFERENCE_ENCODING || metadataText(payload, 'messageType') !== REFERENCE_TYPE) return payload;
  const reference = JSON.parse(Buffer.from(payload.data ?? []).toString('utf8')) as { driverName?: string; claimData?: Record<string, string> };
  const driver = reference.driverName !== undefined ? storage.getDriver(reference.driverName) : null;
  if (!driver) return payload;
  const [stored] = await driver.retrieve({}, [new StorageDriverClaim(reference.claimData ?? {})]);
  return stored ?? payload;
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error(`request body over ${MAX_BODY_BYTES} bytes`), { status: 413 });
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the codec server; resolves once it listens. */
export async function startCodecServer(options: CodecServerOptions): Promise<CodecServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const origins = new Set(options.allowedOrigins.map((origin) => origin.replace(/\/+$/, '')));

  async function decodeOne(payload: Payload): Promise<Payload> {
    let current = await dereference(payload, options.externalStorage);
    for (const codec of [...options.codecs].reverse()) current = (await codec.decode([current]))[0] ?? current;
    return current;
  }

  async function encodeOne(payload: Payload): Promise<Payload> {
    let current = payload;
    for (const codec of options.codecs) current = (await codec.encode([current]))[0] ?? current;
    return current;
  }

  async function answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      // A browser page of another origin may not read plaintext through this server.
      if (!origins.has(origin)) return send(response, 403, { error: `origin ${origin} is not allowed (mcp-host codec-server --web-ui-origin)` });
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Vary', 'Origin');
    }
    const operation = /\/(encode|decode)\/?$/.exec(new URL(request.url ?? '/', 'http://codec').pathname)?.[1];
    if (request.method === 'OPTIONS') {
      response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
      response.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      response.setHeader('Access-Control-Max-Age', '600');
      response.writeHead(operation ? 204 : 404).end();
      return;
    }
    if (!operation) return send(response, 404, { error: 'not found: POST /encode or /decode' });
    if (request.method !== 'POST') return send(response, 405, { error: 'use POST' });
    let payloads: Payload[];
    try {
      const body = JSON.parse(await readBody(request)) as { payloads?: JsonPayload[] };
      if (!Array.isArray(body.payloads)) throw new TypeError('the body has no "payloads" array');
      payloads = body.payloads.map(fromJson);
    } catch (err) {
      const status = typeof (err as { status?: unknown }).status === 'number' ? (err as { status: number }).status : 400;
      return send(response, status, { error: `bad request: ${err instanceof Error ? err.message : String(err)}` });
    }
    const results = await Promise.all(
      payloads.map(async (payload) => {
        if (operation === 'encode') return encodeOne(payload);
        // One payload this server cannot open (a key it lacks) stays as it is; the others are decoded.
        return decodeOne(payload).catch((err: unknown) => {
          log(`codec-server: a payload was left encoded: ${err instanceof Error ? err.message : String(err)}`);
          return payload;
        });
      }),
    );
    send(response, 200, { payloads: results.map(toJson) });
  }

  const server = http.createServer((request, response) => {
    answer(request, response).catch((err: unknown) => {
      log(`codec-server: ${err instanceof Error ? err.message : String(err)}`);
      if (!response.headersSent) send(response, 500, { error: err instanceof Error ? err.message : String(err) });
      else response.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_CODEC_SERVER_PORT, host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
