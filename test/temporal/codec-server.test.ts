/**
 * The codec server over real HTTP: Temporal's /encode and /decode protocol (proto3 JSON, base64
 * bytes), CORS for the Web UI's origin, payloads read back from the external store, and nothing
 * for a page of another origin.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, StorageDriverClaim, type Payload } from '@temporalio/common';
import { encodeReferencePayload } from '@temporalio/common/lib/internal-non-workflow/extstore-helpers';
import { CompressionCodec } from '../../src/temporal/compression-codec';
import { startCodecServer, type CodecServer } from '../../src/temporal/codec-server';
import { EncryptionCodec } from '../../src/temporal/encryption-codec';
import { encryptionKeyringFromEnv } from '../../src/temporal/encryption-keys';
import { createExternalStorage } from '../../src/temporal/payload-store/external-storage';

const UI = 'http://127.0.0.1:8233';
const keyring = encryptionKeyringFromEnv({ MCP_HOST_ENCRYPTION_KEY: randomBytes(32).toString('base64'), MCP_HOST_ENCRYPTION_KEY_ID: 'k1' });
const codecs = [new CompressionCodec(), new EncryptionCodec(keyring)];

type JsonPayload = { metadata: Record<string, string>; data: string };
const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(p.data ?? []).toString('base64'),
});
const valueOfJson = (p: JsonPayload | undefined): unknown =>
  defaultPayloadConverter.fromPayload({
    metadata: Object.fromEntries(Object.entries(p?.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(p?.data ?? '', 'base64'),
  });

async function encodeAll(value: unknown): Promise<Payload> {
  let payloads = [defaultPayloadConverter.toPayload(value)];
  for (const codec of codecs) payloads = await codec.encode(payloads);
  return payloads[0] as Payload;
}

describe('codec server', () => {
  let dir: string;
  let server: CodecServer;
  const logs: string[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'codec-server-'));
    server = await startCodecServer({ codecs, externalStorage: createExternalStorage(dir), allowedOrigins: [UI], port: 0, log: (l) => logs.push(l) });
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const post = (route: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${server.url}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', ...headers }, body: JSON.stringify(body) });

  test('binds 127.0.0.1', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('/decode gives back plaintext (decrypted and gunzipped), with CORS headers for the Web UI', async () => {
    const small = await encodeAll({ text: '北京今天天气怎么样' });
    const large = await encodeAll({ text: 'x'.repeat(100_000) });
    const plain = defaultPayloadConverter.toPayload('not encoded');
    const response = await post('/decode', { payloads: [small, large, plain].map(toJson) }, { Origin: UI });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(UI);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    const body = (await response.json()) as { payloads: JsonPayload[] };
    expect(body.payloads.map(valueOfJson)).toEqual([{ text: '北京今天天气怎么样' }, { text: 'x'.repeat(100_000) }, 'not encoded']);
  });

  test('/encode compresses and encrypts; the namespace path form works too', async () => {
    const response = await post('/default/encode', { payloads: [toJson(defaultPayloadConverter.toPayload({ a: 1 }))] });
    const body = (await response.json()) as { payloads: JsonPayload[] };
    expect(Buffer.from(body.payloads[0]?.metadata.encoding ?? '', 'base64').toString()).toBe('binary/encrypted');
    const decoded = (await (await post('/default/decode', body)).json()) as { payloads: JsonPayload[] };
    expect(valueOfJson(decoded.payloads[0])).toEqual({ a: 1 });
  });

  test('a payload kept in the external store is read back and decoded', async () => {
    const encrypted = await encodeAll({ big: 'y'.repeat(10) });
    const storage = createExternalStorage(dir);
    const driver = storage.drivers[0];
    if (!driver) throw new Error('no driver');
    const [claim] = await driver.store({}, [encrypted]);
    const reference = encodeReferencePayload({ driverName: driver.name, claim: claim as StorageDriverClaim, sizeBytes: 100 });
    const body = (await (await post('/decode', { payloads: [toJson(reference)] })).json()) as { payloads: JsonPayload[] };
    expect(valueOfJson(body.payloads[0])).toEqual({ big: 'y'.repeat(10) });
  });

  test('a payload it cannot open stays as it is, the others are decoded, and the reason is logged', async () => {
    const other = new EncryptionCodec(encryptionKeyringFromEnv({ MCP_HOST_ENCRYPTION_KEY: randomBytes(32).toString('base64'), MCP_HOST_ENCRYPTION_KEY_ID: 'k9' }));
    const [foreign] = await other.encode([defaultPayloadConverter.toPayload('secret')]);
    const ours = await encodeAll('ours');
    const body = (await (await post('/decode', { payloads: [toJson(foreign as Payload), toJson(ours)] })).json()) as { payloads: JsonPayload[] };
    expect(body.payloads[0]).toEqual(toJson(foreign as Payload));
    expect(valueOfJson(body.payloads[1])).toBe('ours');
    expect(logs.join('\n')).toMatch(/left encoded: .*key id "k9"/);
  });

  test('preflight OPTIONS answers the Web UI origin with methods and headers', async () => {
    const response = await fetch(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: UI, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-namespace' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(UI);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type,X-Namespace,Authorization');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  });

  test('a page of another origin gets nothing: 403, no CORS headers', async () => {
    const ours = await encodeAll('secret');
    const response = await post('/decode', { payloads: [toJson(ours)] }, { Origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(await response.text()).not.toContain(Buffer.from(JSON.stringify('secret')).toString('base64'));
    const preflight = await fetch(`${server.url}/decode`, { method: 'OPTIONS', headers: { Origin: 'http://evil.example' } });
    expect(preflight.status).toBe(403);
  });

  test('bad requests: unknown path 404, GET 405, malformed body 400', async () => {
    expect((await post('/other', { payloads: [] })).status).toBe(404);
    expect((await fetch(`${server.url}/decode`)).status).toBe(405);
    const bad = await fetch(`${server.url}/decode`, { method: 'POST', body: '{"payloads": 3}' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/no "payloads" array/);
  });
});
