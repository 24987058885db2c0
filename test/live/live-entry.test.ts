import { randomBytes } from 'node:crypto';
import { decodeEntry, encodeEntry, type LiveEntry } from '../../src/live/live-entry';
import { parseLiveUrl } from '../../src/live/live-url';
import { openLiveChannel, streamKey } from '../../src/live/redis-live-channel';
import { encryptionKeyringFromEnv, type EncryptionKeyring } from '../../src/temporal/encryption-keys';
import { optionalServerTest } from '../support/optional-server';
import { pollUntil } from '../support/poll-until';
import { REDIS, redisInstalled, startRedis, type RedisServer } from '../support/redis-server';

const KEY = randomBytes(32).toString('base64');
const sealing = encryptionKeyringFromEnv({ MCP_HOST_ENCRYPTION_KEY: KEY, MCP_HOST_ENCRYPTION_KEY_ID: 'live-key-1' });
const plain: EncryptionKeyring = { current: undefined, keys: new Map() };
const SECRET = 'The launch code is PLAINTEXT-MARKER-42, 北京晴';

const entry: LiveEntry = { runId: 'run-1', activityId: '7', attempt: 2, kind: 'text', offset: 120, delta: SECRET };

/** Fields as a map, for looking at them. */
function asMap(fields: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) out[fields[i]!] = fields[i + 1]!;
  return out;
}

describe('live entry codec', () => {
  test('without a key: the piece as it is, and read back whole', () => {
    const fields = encodeEntry('wf-1', entry, plain);
    expect(asMap(fields)).toEqual({ runId: 'run-1', activityId: '7', attempt: '2', kind: 'text', offset: '120', delta: SECRET });
    expect(decodeEntry('wf-1', fields, plain)).toEqual(entry);
  });

  test('with a key: the piece sealed under the key id (no plaintext), opened with the same keyring', () => {
    const fields = encodeEntry('wf-1', entry, sealing);
    const map = asMap(fields);
    expect(map).toMatchObject({ runId: 'run-1', activityId: '7', attempt: '2', kind: 'text', offset: '120', cipher: 'AES-256-GCM', keyId: 'live-key-1' });
    expect(map.delta).toBeUndefined();
    expect(fields.join(' ')).not.toContain('PLAINTEXT-MARKER');
    expect(fields.join(' ')).not.toContain('北京');
    expect(decodeEntry('wf-1', fields, sealing)).toEqual(entry);
    // Two seals of one piece differ (a random IV each).
    expect(asMap(encodeEntry('wf-1', entry, sealing)).sealed).not.toBe(map.sealed);
  });

  test('a sealed piece does not open without its key, under another key, moved to another stream or place, or changed', () => {
    const fields = encodeEntry('wf-1', entry, sealing);
    expect(decodeEntry('wf-1', fields, plain)).toBeUndefined();
    const other = encryptionKeyringFromEnv({ MCP_HOST_ENCRYPTION_KEY: randomBytes(32).toString('base64'), MCP_HOST_ENCRYPTION_KEY_ID: 'live-key-1' });
    expect(decodeEntry('wf-1', fields, other)).toBeUndefined();
    expect(decodeEntry('wf-2', fields, sealing)).toBeUndefined();
    const moved = fields.map((value, i) => (fields[i - 1] === 'offset' ? '0' : value));
    expect(decodeEntry('wf-1', moved, sealing)).toBeUndefined();
    const changed = fields.map((value, i) => (fields[i - 1] === 'sealed' ? Buffer.from(Buffer.from(value, 'base64').map((b, j) => (j === 20 ? b ^ 1 : b))).toString('base64') : value));
    expect(decodeEntry('wf-1', changed, sealing)).toBeUndefined();
  });

  test('anything else is not an entry', () => {
    expect(decodeEntry('wf-1', [], plain)).toBeUndefined();
    expect(decodeEntry('wf-1', ['runId', 'r', 'activityId', '1', 'attempt', '0', 'kind', 'text', 'offset', '0', 'delta', 'x'], plain)).toBeUndefined();
    expect(decodeEntry('wf-1', ['runId', 'r', 'activityId', '1', 'attempt', '1', 'kind', 'tool', 'offset', '0', 'delta', 'x'], plain)).toBeUndefined();
    expect(decodeEntry('wf-1', ['runId', 'r', 'activityId', '1', 'attempt', '1', 'kind', 'thinking', 'offset', '3', 'delta', 'x'], plain)).toEqual({
      runId: 'r',
      activityId: '1',
      attempt: 1,
      kind: 'thinking',
      offset: 3,
      delta: 'x',
    });
  });
});

const testWithRedis = optionalServerTest(REDIS, redisInstalled());

describe('live entries in a real Redis stream', () => {
  let redis: RedisServer | undefined;
  afterAll(async () => {
    await redis?.stop();
  });

  testWithRedis('with encryption on, XRANGE of the stream shows no plaintext; a follower with the key reads the text', async () => {
    redis = await startRedis();
    const live = parseLiveUrl(redis.url)!;
    const channel = openLiveChannel(live, { keyring: () => sealing });
    try {
      const workflowId = `codec-${Date.now()}`;
      await channel.markFollowing(workflowId);
      await pollUntil('the channel to see the follower', () => channel.followed(workflowId));
      channel.publish(workflowId, { ...entry, offset: 0 });
      channel.publish(workflowId, { ...entry, offset: SECRET.length, delta: ' and more PLAINTEXT-MARKER-43' });
      await pollUntil('two entries', async () => (await redis!.client.xlen(streamKey(workflowId))) === 2);
      const raw = JSON.stringify(await redis.client.xrange(streamKey(workflowId), '-', '+'));
      expect(raw).toContain('live-key-1');
      expect(raw).not.toContain('PLAINTEXT-MARKER');
      expect(raw).not.toContain('launch code');
      expect(raw).not.toContain('\\u5317'); // 北, as JSON escapes it
      expect(raw).not.toContain('北京');
      const tail = await channel.tail(workflowId);
      expect(tail.entries.map((e) => e.delta).join('')).toBe(`${SECRET} and more PLAINTEXT-MARKER-43`);
      // The stream expires by itself (an hour after its last write).
      const ttl = await redis.client.pttl(streamKey(workflowId));
      expect(ttl).toBeGreaterThan(59 * 60 * 1000);
      expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);
    } finally {
      await channel.close();
    }
  });
});
