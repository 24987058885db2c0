import { readSettings } from '../../src/config/settings';
import { liveTextLine, parseLiveUrl, redactLiveSecrets } from '../../src/live/live-url';

describe('MCP_HOST_LIVE_URL', () => {
  test('unset or blank: no broker, and the status line says heartbeats', () => {
    expect(parseLiveUrl(undefined)).toBeUndefined();
    expect(parseLiveUrl('  ')).toBeUndefined();
    expect(readSettings({}).live).toBeUndefined();
    expect(liveTextLine(undefined)).toBe('Live text: heartbeats (MCP_HOST_LIVE_URL unset)');
  });

  test('redis:// and rediss:// with user, password and database: shown without the credentials', () => {
    const live = parseLiveUrl('redis://app:s3cret-pw@cache.internal:6380/2');
    expect(live).toEqual({ kind: 'redis', url: 'redis://app:s3cret-pw@cache.internal:6380/2', display: 'redis://cache.internal:6380/2', secrets: ['s3cret-pw'] });
    expect(liveTextLine(live)).toBe('Live text: Redis redis://cache.internal:6380/2 (stream per conversation)');
    expect(parseLiveUrl('rediss://:pw-only-1234@redis.example')?.display).toBe('rediss://redis.example:6379');
    expect(parseLiveUrl('redis://127.0.0.1:6379')).toMatchObject({ display: 'redis://127.0.0.1:6379', secrets: [] });
    expect(readSettings({ MCP_HOST_LIVE_URL: ' redis://localhost:6379 ' }).live?.display).toBe('redis://localhost:6379');
  });

  test('nats:// is refused by name, saying what to use', () => {
    expect(() => parseLiveUrl('nats://127.0.0.1:4222')).toThrow('MCP_HOST_LIVE_URL: nats:// is not supported here; use redis://');
    expect(() => readSettings({ MCP_HOST_LIVE_URL: 'nats://127.0.0.1:4222' })).toThrow(/^MCP_HOST_LIVE_URL: nats:\/\/ is not supported here; use redis:\/\//);
  });

  test('other schemes, no scheme, no host or a database that is not a number are refused, never quoting a password', () => {
    expect(() => parseLiveUrl('http://user:hunter22@host:6379')).toThrow('MCP_HOST_LIVE_URL: expected redis://[user:password@]host:port[/db] or rediss://…, got a http: URL');
    expect(() => parseLiveUrl('localhost:6379')).toThrow(/MCP_HOST_LIVE_URL: expected redis:/);
    expect(() => parseLiveUrl('redis://')).toThrow(/MCP_HOST_LIVE_URL/);
    let message = '';
    try {
      parseLiveUrl('redis://u:hunter22@host:6379/zero');
    } catch (err) {
      message = err instanceof Error ? err.message : '';
    }
    expect(message).toMatch(/^MCP_HOST_LIVE_URL: the database must be a number/);
    expect(message).not.toContain('hunter22');
  });

  test('a client error that quotes the URL or the password is cleaned', () => {
    const live = parseLiveUrl('redis://app:s3cret-pw@cache.internal:6380')!;
    expect(redactLiveSecrets('cannot reach redis://app:s3cret-pw@cache.internal:6380 (auth s3cret-pw)', live)).toBe('cannot reach redis://cache.internal:6380 (auth ***)');
  });
});
