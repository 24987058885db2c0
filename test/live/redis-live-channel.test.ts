/**
 * The live channel against a real Redis (Debian's redis-server, test/support/redis-server.ts): a
 * call publishes nothing while nobody follows, everything from its start once someone does; a
 * follower catches up from the tail (only the calls still running) and then reads each new piece;
 * a broken connection is logged without the URL's password and never throws into the call.
 */
import { followLive } from '../../src/live/follow-live';
import { LiveCallPublisher } from '../../src/live/live-call';
import type { LiveChannel } from '../../src/live/live-channel';
import type { LiveEntry } from '../../src/live/live-entry';
import { parseLiveUrl } from '../../src/live/live-url';
import { followersKey, openLiveChannel, PRESENCE_CACHE_MS, streamKey } from '../../src/live/redis-live-channel';
import type { EncryptionKeyring } from '../../src/temporal/encryption-keys';
import { optionalServerTest } from '../support/optional-server';
import { pollUntil } from '../support/poll-until';
import { REDIS, redisInstalled, startRedis, type RedisServer } from '../support/redis-server';

const plain: EncryptionKeyring = { current: undefined, keys: new Map() };
const testWithRedis = optionalServerTest(REDIS, redisInstalled());
const PASSWORD = 'live-test-pw-9731';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the live channel on Redis', () => {
  let redis: RedisServer | undefined;
  let channel: LiveChannel | undefined;
  let n = 0;
  const workflowId = (): string => `wf-${process.pid}-${Date.now()}-${++n}`;

  beforeAll(async () => {
    if (!redisInstalled()) return;
    redis = await startRedis({ password: PASSWORD });
    channel = openLiveChannel(parseLiveUrl(redis.url)!, { keyring: () => plain });
    // A command goes through once the channel is connected.
    await pollUntil('the channel to connect', () => channel!.markFollowing('warm-up').then(() => true));
  });
  afterAll(async () => {
    await channel?.close();
    await redis?.stop();
  });

  testWithRedis('nobody follows: a call publishes nothing (no stream key)', async () => {
    const id = workflowId();
    const call = new LiveCallPublisher(channel!, { workflowId: id, runId: 'r1', activityId: '3', attempt: 1 });
    let text = '';
    for (const word of ['one ', 'two ', 'three ']) {
      text += word;
      call.update('text', text);
      await sleep(PRESENCE_CACHE_MS / 2);
    }
    call.close();
    expect(await redis!.client.exists(streamKey(id))).toBe(0);
    expect(await redis!.client.xlen(streamKey(id))).toBe(0);
  });

  testWithRedis('someone follows: the first entry carries the text from its start, then each piece at once, thinking before text', async () => {
    const id = workflowId();
    const call = new LiveCallPublisher(channel!, { workflowId: id, runId: 'r1', activityId: '3', attempt: 1 });
    call.update('text', 'Hello');
    await channel!.markFollowing(id);
    expect(await redis!.client.pttl(followersKey(id))).toBeGreaterThan(4000);
    // Within the presence cache's second the channel notices the follower (a piece after that asks again).
    await sleep(PRESENCE_CACHE_MS + 50);
    await pollUntil('the channel to see the follower', () => channel!.followed(id));
    call.update('text', 'Hello, wor');
    call.update('thinking', 'hm');
    call.update('text', 'Hello, world');
    call.close();
    call.update('text', 'Hello, world and more');
    await pollUntil('three entries', async () => (await redis!.client.xlen(streamKey(id))) === 3);
    const tail = await channel!.tail(id);
    expect(tail.entries.map(({ kind, offset, delta }) => ({ kind, offset, delta }))).toEqual([
      { kind: 'text', offset: 0, delta: 'Hello, wor' },
      { kind: 'thinking', offset: 0, delta: 'hm' },
      { kind: 'text', offset: 10, delta: 'ld' },
    ]);
    expect(tail.entries.every((e) => e.runId === 'r1' && e.activityId === '3' && e.attempt === 1)).toBe(true);
  });

  testWithRedis('a follower catches up from the tail (running calls only), then reads each new entry in order', async () => {
    const id = workflowId();
    await channel!.markFollowing(id);
    const ended: LiveEntry = { runId: 'r1', activityId: '1', attempt: 1, kind: 'text', offset: 0, delta: 'an answer that ended' };
    const running: LiveEntry = { runId: 'r1', activityId: '5', attempt: 1, kind: 'text', offset: 0, delta: 'so far' };
    channel!.publish(id, ended);
    channel!.publish(id, running);
    await pollUntil('the tail', async () => (await redis!.client.xlen(streamKey(id))) === 2);
    const seen: LiveEntry[] = [];
    const stop = new AbortController();
    const following = followLive(channel!, id, {
      signal: stop.signal,
      keepAlive: true,
      running: () => Promise.resolve((entry) => entry.activityId === '5'),
      onEntry: (entry) => seen.push(entry),
    });
    try {
      await pollUntil('the catch-up', () => seen.length === 1);
      expect(seen[0]).toEqual(running);
      for (const [offset, delta] of [[6, ' and'], [10, ' on']] as const) channel!.publish(id, { ...running, offset, delta });
      await pollUntil('the new entries', () => seen.length === 3);
      expect(seen.map((e) => e.delta).join('')).toBe('so far and on');
      // Present while following.
      expect(await redis!.client.exists(followersKey(id))).toBe(1);
    } finally {
      stop.abort();
      await following;
    }
  });

  testWithRedis('a wrong password: failures are logged once, by the URL without credentials; publishing never throws', async () => {
    const lines: string[] = [];
    const url = redis!.url.replace(PASSWORD, 'wrong-pw-5555');
    const bad = openLiveChannel(parseLiveUrl(url)!, { log: (line) => lines.push(line), keyring: () => plain });
    try {
      await pollUntil('a logged failure', () => lines.length > 0, 10_000);
      const id = workflowId();
      expect(bad.followed(id)).toBe(false);
      expect(() => bad.publish(id, { runId: 'r', activityId: '1', attempt: 1, kind: 'text', offset: 0, delta: 'x' })).not.toThrow();
      await sleep(500);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`live channel redis://127.0.0.1:${redis!.port}:`);
      expect(lines.join('\n')).not.toContain('wrong-pw-5555');
      expect(lines.join('\n')).not.toContain(PASSWORD);
    } finally {
      await bad.close();
    }
  });
});
