/**
 * The S3 OAuth token store (src/mcp/oauth/s3-token-store.ts) against a real S3-compatible server
 * (Versity Gateway, test/support/s3-server.ts): the server's conditional writes the store relies
 * on; two stores (two "machines") updating one entry at once without losing a change; the refresh
 * lease held by one at a time; two refreshes racing through serialised-refresh.ts against a real
 * HTTP token endpoint that rotates refresh tokens, spending each once, for the S3 store and for
 * the file store; the object sealed (no token in it), readable after a key rotation, refused
 * without a key or when it does not open, each with its typed error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { HostError } from '../../../src/errors/host-error';
import type { OAuthStore } from '../../../src/mcp/oauth/oauth-store';
import { oauthStoreFromEnv } from '../../../src/mcp/oauth/oauth-store-from-env';
import { oauthStoreSetting } from '../../../src/mcp/oauth/oauth-store-setting';
import { S3OAuthStore } from '../../../src/mcp/oauth/s3-token-store';
import { serialisedRefreshFetch } from '../../../src/mcp/oauth/serialised-refresh';
import { OAuthTokenStore } from '../../../src/mcp/oauth/token-store';
import { encryptionKeyringFromEnv } from '../../../src/temporal/encryption-keys';
import { optionalServerTest } from '../../support/optional-server';
import { S3_SERVER, s3ServerInstalled, startS3Server, type S3Server } from '../../support/s3-server';

const s3Test = optionalServerTest(S3_SERVER, s3ServerInstalled());
const URL_ = 'https://mcp.example/mcp';
const newKey = (): string => randomBytes(32).toString('base64');

/** A token endpoint over real HTTP that rotates refresh tokens: each is good once; a reuse gets invalid_grant. */
async function startTokenEndpoint(): Promise<{ url: string; presented: string[]; refused: number; issue(): { access_token: string; refresh_token: string }; close(): Promise<void> }> {
  const valid = new Set<string>();
  const state = { presented: [] as string[], refused: 0 };
  const issue = (): { access_token: string; refresh_token: string } => {
    const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
    valid.add(tokens.refresh_token);
    return tokens;
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const presented = new URLSearchParams(body).get('refresh_token') ?? '';
      state.presented.push(presented);
      // Slow enough that two racers overlap.
      setTimeout(() => {
        if (!valid.delete(presented)) {
          state.refused += 1;
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...issue(), token_type: 'bearer', expires_in: 60 }));
      }, 200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    get presented() {
      return state.presented;
    },
    get refused() {
      return state.refused;
    },
    issue,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The refresh grant as the MCP SDK posts it. */
const refreshInit = (refreshToken: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
});

/** Two refreshes of one login racing through two stores: each refresh token is presented once, both get the same new tokens. */
async function raceRefreshes(a: OAuthStore, b: OAuthStore): Promise<void> {
  const endpoint = await startTokenEndpoint();
  try {
    const login = endpoint.issue();
    await a.update('demo', URL_, (e) => ({ ...e, tokens: { ...login, token_type: 'bearer', expires_in: 1 }, savedAt: Date.now() - 10_000 }));
    const server = { name: 'demo', url: URL_ };
    const answers = await Promise.all([a, b].map(async (store) => (await serialisedRefreshFetch(store, server)(endpoint.url, refreshInit(login.refresh_token))).json() as Promise<{ access_token: string; refresh_token: string }>));
    expect(endpoint.refused).toBe(0);
    expect(endpoint.presented).toEqual([login.refresh_token]);
    // The same tokens (the loser's expires_in counts down from the winner's save).
    expect(answers[1]).toMatchObject({ access_token: answers[0]?.access_token, refresh_token: answers[0]?.refresh_token });
    expect((await b.get('demo', URL_))?.tokens).toMatchObject({ access_token: answers[0]?.access_token, refresh_token: answers[0]?.refresh_token });
    // The next refresh, from either, spends the new token (once).
    const next = (await (await serialisedRefreshFetch(b, server)(endpoint.url, refreshInit(answers[0]?.refresh_token ?? ''))).json()) as { access_token: string };
    expect(next.access_token).toMatch(/^at-/);
    expect(endpoint.presented).toEqual([login.refresh_token, answers[0]?.refresh_token]);
    expect(endpoint.refused).toBe(0);
  } finally {
    await endpoint.close();
  }
}

describe('the S3 OAuth token store against a real S3 server', () => {
  let s3: S3Server | undefined;
  let env: Record<string, string>;
  let raw: S3Client;
  const key = newKey();

  beforeAll(async () => {
    if (!s3ServerInstalled()) return;
    s3 = await startS3Server('oauth-tokens');
    env = { ...s3.env('unused'), MCP_HOST_PAYLOAD_STORE: '', MCP_HOST_OAUTH_STORE: `s3://${s3.bucket}/fleet`, MCP_HOST_ENCRYPTION_KEY: key };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY, AWS_REGION: 'us-east-1' });
    raw = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '' } });
  }, 60_000);
  afterAll(async () => {
    raw?.destroy();
    await s3?.stop();
  });

  /** A store as a separate machine would have it: its own object, its own S3 client. */
  const machine = (extra: Record<string, string> = {}): S3OAuthStore => {
    const e = { ...env, ...extra };
    const setting = oauthStoreSetting(e);
    if (setting.kind !== 's3') throw new Error('not s3');
    return new S3OAuthStore(setting, encryptionKeyringFromEnv(e));
  };
  const rawObject = async (objectKey: string): Promise<string> => (await (await raw.send(new GetObjectCommand({ Bucket: s3?.bucket ?? '', Key: objectKey }))).Body?.transformToString()) ?? '';

  s3Test('the server honours the conditional writes the store relies on: If-None-Match: * and If-Match answer 412 when they fail', async () => {
    const objectKey = `probe/${randomUUID()}`;
    const first = await raw.send(new PutObjectCommand({ Bucket: s3?.bucket, Key: objectKey, Body: 'one', IfNoneMatch: '*' }));
    await expect(raw.send(new PutObjectCommand({ Bucket: s3?.bucket, Key: objectKey, Body: 'two', IfNoneMatch: '*' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 412 } });
    await raw.send(new PutObjectCommand({ Bucket: s3?.bucket, Key: objectKey, Body: 'three', IfMatch: first.ETag }));
    await expect(raw.send(new PutObjectCommand({ Bucket: s3?.bucket, Key: objectKey, Body: 'four', IfMatch: first.ETag }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 412 } });
    expect(await rawObject(objectKey)).toBe('three');
  }, 30_000);

  s3Test('two machines updating one entry at once lose no change (compare-and-swap)', async () => {
    const [a, b] = [machine(), machine()];
    const writes = 12;
    await Promise.all(
      [a, b].map((store, who) =>
        (async () => {
          for (let i = 0; i < writes; i++) await store.update('counter', URL_, (e) => ({ ...e, wantedScope: `${e.wantedScope ?? ''} ${who}.${i}`.trim() }));
        })(),
      ),
    );
    const scopes = ((await a.get('counter', URL_))?.wantedScope ?? '').split(' ');
    expect(scopes).toHaveLength(2 * writes);
    expect(new Set(scopes).size).toBe(2 * writes);
  }, 60_000);

  s3Test('the refresh lease has one holder at a time across machines, and a stale one is taken over', async () => {
    const stores = [machine(), machine(), machine()];
    let holders = 0;
    let most = 0;
    await Promise.all(
      stores.map((store) =>
        store.exclusive('leased', async () => {
          holders += 1;
          most = Math.max(most, holders);
          await new Promise((resolve) => setTimeout(resolve, 150));
          holders -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    // A holder that died: its lease (expired) is taken over, not waited on for ever.
    const leaseKey = stores[0]?.leaseKey('dead') ?? '';
    await raw.send(new PutObjectCommand({ Bucket: s3?.bucket, Key: leaseKey, Body: JSON.stringify({ holder: 'dead', expiresAt: Date.now() - 1 }) }));
    const started = Date.now();
    expect(await stores[1]?.exclusive('dead', () => Promise.resolve('taken'))).toBe('taken');
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);

  s3Test('two machines refreshing one login at the same instant spend the refresh token once and share the new tokens', async () => {
    await raceRefreshes(machine(), machine());
  }, 60_000);

  s3Test('the object is sealed: no token in it; it opens after a key rotation; refused without a key or when it does not open', async () => {
    const store = machine();
    const tokens = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}`, token_type: 'bearer' };
    await store.update('sealed', URL_, (e) => ({ ...e, tokens, savedAt: Date.now() }));
    const body = await rawObject(store.objectKey('sealed'));
    expect(body).toContain('"format":"durable-mcp-host/oauth-entry"');
    for (const secret of [tokens.access_token, tokens.refresh_token, 'at-', 'rt-', URL_]) expect(body).not.toContain(secret);

    // Rotation: a new current key, the old one kept for decryption.
    const rotated = machine({ MCP_HOST_ENCRYPTION_KEY: newKey(), MCP_HOST_ENCRYPTION_KEY_ID: 'k2', MCP_HOST_ENCRYPTION_OLD_KEYS: `${encryptionKeyringFromEnv(env).current?.id ?? ''}:${key}` });
    expect((await rotated.get('sealed', URL_))?.tokens).toEqual(tokens);
    // A process with only the new key cannot open it: typed, not retryable, no token in the message.
    const newOnly = machine({ MCP_HOST_ENCRYPTION_KEY: newKey(), MCP_HOST_ENCRYPTION_KEY_ID: 'k3' });
    const unknownKey = await newOnly.get('sealed', URL_).catch((err: unknown) => err);
    expect(unknownKey).toBeInstanceOf(HostError);
    expect(unknownKey).toMatchObject({ type: 'mcp.oauth_store_invalid', retryable: false });
    expect((unknownKey as Error).message).toMatch(/MCP_HOST_ENCRYPTION_OLD_KEYS/);
    // A changed object does not open.
    const envelope = JSON.parse(body) as { sealed: string };
    const bytes = Buffer.from(envelope.sealed, 'base64');
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    await raw.send(new PutObjectCommand({ Bucket: s3?.bucket, Key: store.objectKey('sealed'), Body: JSON.stringify({ ...envelope, sealed: bytes.toString('base64') }) }));
    await expect(store.get('sealed', URL_)).rejects.toMatchObject({ type: 'mcp.oauth_store_invalid', retryable: false });
    // No key: the S3 store refuses to start, naming the variable.
    expect(() => oauthStoreFromEnv({ ...env, MCP_HOST_ENCRYPTION_KEY: '' })).toThrow(/set MCP_HOST_ENCRYPTION_KEY/);
    expect(() => oauthStoreFromEnv({ ...env, MCP_HOST_ENCRYPTION_KEY: '' })).toThrow(expect.objectContaining({ type: 'mcp.oauth_store_invalid', retryable: false }) as Error);
  }, 60_000);

  s3Test('a store that cannot be reached is retryable', async () => {
    const store = machine({ MCP_HOST_OAUTH_S3_ENDPOINT: 'http://127.0.0.1:9' });
    await expect(store.get('demo', URL_)).rejects.toMatchObject({ type: 'mcp.oauth_store_unavailable', retryable: true });
  }, 60_000);
});

describe('the file store serialises refreshes across processes too', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'oauth-file-race-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('two stores on one file refreshing one login at the same instant spend the refresh token once', async () => {
    const file = path.join(dir, 'tokens.json');
    await raceRefreshes(new OAuthTokenStore(file), new OAuthTokenStore(file));
  }, 30_000);

  test('a path in MCP_HOST_OAUTH_STORE stays the file store', () => {
    expect(oauthStoreFromEnv({ MCP_HOST_OAUTH_STORE: path.join(dir, 'x.json') })).toBeInstanceOf(OAuthTokenStore);
    expect(() => oauthStoreSetting({ MCP_HOST_OAUTH_STORE: 's3://Bad_Bucket/x' })).toThrow(expect.objectContaining({ type: 'mcp.oauth_store_invalid' }) as Error);
  });
});
