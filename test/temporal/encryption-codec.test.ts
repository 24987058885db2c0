/** The AES-256-GCM payload codec and its keys: round trip, wrong key, tampering, rotation, metadata. */
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { EncryptionError } from '../../src/errors/encryption-error';
import { CompressionCodec, GZIP_ENCODING } from '../../src/temporal/compression-codec';
import { ENCRYPTED_ENCODING, EncryptionCodec, KEY_ID_METADATA } from '../../src/temporal/encryption-codec';
import { derivedKeyId, describeKeyring, encryptionKeyringFromEnv, type EncryptionKeyring } from '../../src/temporal/encryption-keys';
import { EnvironmentEncryptionCodec } from '../../src/temporal/environment-encryption';

const KEY_A = randomBytes(32).toString('base64');
const KEY_B = randomBytes(32).toString('base64');
const SECRET_TEXT = '北京今天天气怎么样 secret-plaintext-marker';

const ring = (env: Record<string, string>): EncryptionKeyring => encryptionKeyringFromEnv(env);
const payloadOf = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const valueOf = (payload: Payload | undefined): unknown => defaultPayloadConverter.fromPayload(payload as Payload);
const text = (bytes: Uint8Array | null | undefined): string => Buffer.from(bytes ?? []).toString('utf8');

/** Everything a reader without the key sees of a payload: metadata and data, raw and as text. */
function visible(payload: Payload): string {
  const meta = Object.entries(payload.metadata ?? {}).map(([k, v]) => `${k}=${text(v)}`);
  return [...meta, text(payload.data), Buffer.from(payload.data ?? []).toString('base64')].join('\n');
}

async function expectEncryptionError(promise: Promise<unknown>, code: EncryptionError['code'], message: RegExp): Promise<void> {
  const err: unknown = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(EncryptionError);
  expect((err as EncryptionError).code).toBe(code);
  expect((err as EncryptionError).message).toMatch(message);
}

describe('EncryptionCodec', () => {
  test('round trip: the payload comes back whole (metadata and data); what is stored is ciphertext under a fresh IV', async () => {
    const codec = new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_A, MCP_HOST_ENCRYPTION_KEY_ID: 'key-2026-12' }));
    const original = payloadOf({ text: SECRET_TEXT, n: 1 });
    const [first] = await codec.encode([original]);
    const [second] = await codec.encode([original]);
    expect(text(first?.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(visible(first as Payload)).not.toContain('secret-plaintext-marker');
    expect(visible(first as Payload)).not.toContain('json/plain');
    // A random IV per payload: the same plaintext never gives the same bytes.
    expect(Buffer.from(first?.data ?? []).equals(Buffer.from(second?.data ?? []))).toBe(false);
    const [back] = await codec.decode([first as Payload]);
    expect(text(back?.metadata?.encoding)).toBe('json/plain');
    expect(valueOf(back)).toEqual({ text: SECRET_TEXT, n: 1 });
  });

  test('the metadata names the key id, never the key', async () => {
    const env = { MCP_HOST_ENCRYPTION_KEY: KEY_A, MCP_HOST_ENCRYPTION_KEY_ID: 'key-2026-12' };
    const [encrypted] = await new EncryptionCodec(ring(env)).encode([payloadOf('x')]);
    const metadata = Object.fromEntries(Object.entries(encrypted?.metadata ?? {}).map(([k, v]) => [k, text(v)]));
    expect(metadata).toEqual({ encoding: 'binary/encrypted', 'encryption-cipher': 'AES-256-GCM', [KEY_ID_METADATA]: 'key-2026-12' });
    const keyBytes = Buffer.from(KEY_A, 'base64');
    const all = Buffer.concat([...Object.values(encrypted?.metadata ?? {}).map((v) => Buffer.from(v)), Buffer.from(encrypted?.data ?? [])]);
    expect(all.includes(keyBytes)).toBe(false);
    expect(visible(encrypted as Payload)).not.toContain(KEY_A);
  });

  test('a key id defaults to a fingerprint of the key', async () => {
    const keyring = ring({ MCP_HOST_ENCRYPTION_KEY: KEY_A });
    expect(keyring.current?.id).toBe(derivedKeyId(Buffer.from(KEY_A, 'base64')));
    expect(keyring.current?.id).toMatch(/^k-[0-9a-f]{16}$/);
    const [encrypted] = await new EncryptionCodec(keyring).encode([payloadOf('x')]);
    expect(text(encrypted?.metadata?.[KEY_ID_METADATA])).toBe(keyring.current?.id);
  });

  test('a wrong key under the same id fails with a typed, clear error', async () => {
    const [encrypted] = await new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_A, MCP_HOST_ENCRYPTION_KEY_ID: 'k1' })).encode([payloadOf(SECRET_TEXT)]);
    const wrong = new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_B, MCP_HOST_ENCRYPTION_KEY_ID: 'k1' }));
    await expectEncryptionError(wrong.decode([encrypted as Payload]), 'encryption.decrypt_failed', /key id "k1" does not decrypt/);
  });

  test('an unknown key id fails with a typed error naming the id and the variables', async () => {
    const [encrypted] = await new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_A, MCP_HOST_ENCRYPTION_KEY_ID: 'k1' })).encode([payloadOf(SECRET_TEXT)]);
    const other = new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_B, MCP_HOST_ENCRYPTION_KEY_ID: 'k2' }));
    await expectEncryptionError(other.decode([encrypted as Payload]), 'encryption.unknown_key_id', /key id "k1".*MCP_HOST_ENCRYPTION_OLD_KEYS/);
    // No key at all (encryption off) cannot read it either, and says so.
    await expectEncryptionError(new EncryptionCodec(ring({})).decode([encrypted as Payload]), 'encryption.unknown_key_id', /"k1"/);
  });

  test('tampered ciphertext, tag, IV or key id metadata fails', async () => {
    const codec = new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_A, MCP_HOST_ENCRYPTION_KEY_ID: 'k1', MCP_HOST_ENCRYPTION_OLD_KEYS: `k0:${KEY_A}` }));
    const [encrypted] = await codec.encode([payloadOf(SECRET_TEXT)]);
    const data = Buffer.from(encrypted?.data ?? []);
    for (const index of [0, 12, 20, data.length - 1]) {
      const changed = Buffer.from(data);
      changed[index] = (changed[index] ?? 0) ^ 1;
      await expectEncryptionError(codec.decode([{ ...encrypted, data: new Uint8Array(changed) }]), 'encryption.decrypt_failed', /does not decrypt/);
    }
    // The same key under another id: the id is authenticated with the ciphertext.
    const moved = { ...encrypted, metadata: { ...encrypted?.metadata, [KEY_ID_METADATA]: Buffer.from('k0') } };
    await expectEncryptionError(codec.decode([moved]), 'encryption.decrypt_failed', /"k0"/);
    await expectEncryptionError(codec.decode([{ ...encrypted, data: new Uint8Array(10) }]), 'encryption.malformed_payload', /too short/);
  });

  test('rotation: new payloads use the new key, payloads of the old key id still decrypt', async () => {
    const before = new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_A, MCP_HOST_ENCRYPTION_KEY_ID: 'key-2026-11' }));
    const [old] = await before.encode([payloadOf('written before the rotation')]);
    const after = new EncryptionCodec(
      ring({ MCP_HOST_ENCRYPTION_KEY: KEY_B, MCP_HOST_ENCRYPTION_KEY_ID: 'key-2026-12', MCP_HOST_ENCRYPTION_OLD_KEYS: `key-2026-11:${KEY_A}` }),
    );
    const [fresh] = await after.encode([payloadOf('written after')]);
    expect(text(fresh?.metadata?.[KEY_ID_METADATA])).toBe('key-2026-12');
    expect((await after.decode([old as Payload, fresh as Payload])).map(valueOf)).toEqual(['written before the rotation', 'written after']);
    // The old key alone no longer opens new payloads; the new key alone no longer opens old ones.
    await expectEncryptionError(before.decode([fresh as Payload]), 'encryption.unknown_key_id', /key-2026-12/);
    const newOnly = new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_B, MCP_HOST_ENCRYPTION_KEY_ID: 'key-2026-12' }));
    await expectEncryptionError(newOnly.decode([old as Payload]), 'encryption.unknown_key_id', /key-2026-11/);
    // Encryption turned off with the old key kept: new payloads plain, old ones still readable.
    const off = new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_OLD_KEYS: `key-2026-11:${KEY_A}` }));
    const [plain] = await off.encode([payloadOf('plain')]);
    expect(text(plain?.metadata?.encoding)).toBe('json/plain');
    expect(valueOf((await off.decode([old as Payload]))[0])).toBe('written before the rotation');
  });

  test('passes payloads it did not write; with no current key it encrypts nothing', async () => {
    const plain = payloadOf('hello');
    const codec = new EncryptionCodec(ring({}));
    expect(await codec.encode([plain])).toEqual([plain]);
    expect(await codec.decode([plain])).toEqual([plain]);
  });

  test('after the gzip codec: a large payload is compressed, then encrypted, and read back through both', async () => {
    const codecs = [new CompressionCodec(), new EncryptionCodec(ring({ MCP_HOST_ENCRYPTION_KEY: KEY_A }))];
    const big = payloadOf({ text: SECRET_TEXT.repeat(5000) });
    let encoded = [big];
    for (const codec of codecs) encoded = await codec.encode(encoded);
    expect(text(encoded[0]?.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(encoded[0]?.data?.length).toBeLessThan(20_000); // compressed before encryption
    const inner = await codecs[1]?.decode(encoded);
    expect(text(inner?.[0]?.metadata?.encoding)).toBe(GZIP_ENCODING);
    let decoded = encoded;
    for (const codec of [...codecs].reverse()) decoded = await codec.decode(decoded);
    expect(valueOf(decoded[0])).toEqual({ text: SECRET_TEXT.repeat(5000) });
  });
});

describe('encryption keys from the environment', () => {
  test.each([
    [{ MCP_HOST_ENCRYPTION_KEY: 'not base64!' }, /MCP_HOST_ENCRYPTION_KEY is not base64/],
    [{ MCP_HOST_ENCRYPTION_KEY: randomBytes(16).toString('base64') }, /MCP_HOST_ENCRYPTION_KEY must be 32 bytes in base64, it is 16 bytes/],
    [{ MCP_HOST_ENCRYPTION_KEY: KEY_A, MCP_HOST_ENCRYPTION_KEY_ID: 'bad id' }, /MCP_HOST_ENCRYPTION_KEY_ID: a key id is/],
    [{ MCP_HOST_ENCRYPTION_KEY_ID: 'k1' }, /MCP_HOST_ENCRYPTION_KEY_ID is set but MCP_HOST_ENCRYPTION_KEY is not/],
    [{ MCP_HOST_ENCRYPTION_OLD_KEYS: KEY_A }, /MCP_HOST_ENCRYPTION_OLD_KEYS \(entry 1\) must be id:base64-key/],
    [{ MCP_HOST_ENCRYPTION_OLD_KEYS: `a:${KEY_A},b:${randomBytes(8).toString('base64')}` }, /entry 2\), key "b" must be 32 bytes/],
    [{ MCP_HOST_ENCRYPTION_KEY: KEY_A, MCP_HOST_ENCRYPTION_KEY_ID: 'k', MCP_HOST_ENCRYPTION_OLD_KEYS: `k:${KEY_B}` }, /key id "k" is given twice/],
  ])('refuses malformed setting %# with one clear line, never quoting a key', (env, message) => {
    let err: unknown;
    try {
      encryptionKeyringFromEnv(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EncryptionError);
    expect((err as EncryptionError).code).toBe('encryption.bad_key');
    expect((err as EncryptionError).message).toMatch(message);
    expect((err as EncryptionError).message).not.toContain('\n');
    for (const value of Object.values(env)) {
      for (const part of value.split(/[,:]/)) if (part.length >= 16) expect((err as EncryptionError).message).not.toContain(part);
    }
  });

  test('URL-safe base64 and spaces around entries are accepted; empty variables are unset', () => {
    const url = KEY_A.replace(/\+/g, '-').replace(/\//g, '_');
    const keyring = encryptionKeyringFromEnv({ MCP_HOST_ENCRYPTION_KEY: url, MCP_HOST_ENCRYPTION_KEY_ID: 'new', MCP_HOST_ENCRYPTION_OLD_KEYS: ` old:${KEY_B} , ` });
    expect(keyring.current?.key.equals(Buffer.from(KEY_A, 'base64'))).toBe(true);
    expect([...keyring.keys.keys()]).toEqual(['new', 'old']);
    expect(describeKeyring(keyring)).toBe('payload encryption on, key id "new"; old keys for decryption: old');
    expect(encryptionKeyringFromEnv({ MCP_HOST_ENCRYPTION_KEY: '', MCP_HOST_ENCRYPTION_KEY_ID: '' }).current).toBeUndefined();
    expect(describeKeyring(encryptionKeyringFromEnv({}))).toBe('payload encryption off');
  });

  test('the environment codec follows the variables as they are when a payload is coded', async () => {
    const env: NodeJS.ProcessEnv = {};
    const codec = new EnvironmentEncryptionCodec(env);
    const [plain] = await codec.encode([payloadOf('a')]);
    expect(text(plain?.metadata?.encoding)).toBe('json/plain');
    env.MCP_HOST_ENCRYPTION_KEY = KEY_A;
    env.MCP_HOST_ENCRYPTION_KEY_ID = 'k1';
    const [encrypted] = await codec.encode([payloadOf('b')]);
    expect(text(encrypted?.metadata?.[KEY_ID_METADATA])).toBe('k1');
    expect(valueOf((await codec.decode([encrypted as Payload]))[0])).toBe('b');
    env.MCP_HOST_ENCRYPTION_KEY = 'short';
    await expect(codec.encode([payloadOf('c')])).rejects.toThrow(/MCP_HOST_ENCRYPTION_KEY is not base64|must be 32 bytes/);
  });
});
