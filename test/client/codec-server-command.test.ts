/** `mcp-host codec-server`'s start: no key, a bad origin, a malformed key: one line each, exit 1; with a key it serves until stopped. */
import { randomBytes } from 'node:crypto';
import { runCli } from '../../src/client/cli';
import { defaultPayloadConverter } from '@temporalio/common';
import { runCodecServer, defaultWebUiOrigins } from '../../src/client/codec-server-command';
import { EncryptionCodec } from '../../src/temporal/encryption-codec';
import { encryptionKeyringFromEnv } from '../../src/temporal/encryption-keys';

const KEY_VARS = ['MCP_HOST_ENCRYPTION_KEY', 'MCP_HOST_ENCRYPTION_KEY_ID', 'MCP_HOST_ENCRYPTION_OLD_KEYS'] as const;

describe('mcp-host codec-server', () => {
  const saved = KEY_VARS.map((name) => process.env[name]);
  afterEach(() => {
    KEY_VARS.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });

  async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, undefined, (l) => out.push(l), (l) => err.push(l));
    return { code, out, err };
  }

  test('without a key it refuses to start, saying which variable to set', async () => {
    KEY_VARS.forEach((name) => delete process.env[name]);
    expect(await run(['codec-server', '--port', '0'])).toEqual({
      code: 1,
      out: [],
      err: ["mcp-host: no encryption key: set MCP_HOST_ENCRYPTION_KEY (and MCP_HOST_ENCRYPTION_KEY_ID), the same as the workers', to decode their payloads"],
    });
  });

  test('a malformed key or origin is one line, exit 1', async () => {
    process.env.MCP_HOST_ENCRYPTION_KEY = randomBytes(8).toString('base64');
    expect((await run(['codec-server', '--port', '0'])).err).toEqual(['mcp-host: MCP_HOST_ENCRYPTION_KEY must be 32 bytes in base64, it is 8 bytes (make one with: openssl rand -base64 32)']);
    process.env.MCP_HOST_ENCRYPTION_KEY = randomBytes(32).toString('base64');
    expect((await run(['codec-server', '--port', '0', '--web-ui-origin', 'http://127.0.0.1:8233/namespaces'])).err).toEqual([
      'mcp-host: --web-ui-origin "http://127.0.0.1:8233/namespaces" must be an origin, scheme://host[:port] (e.g. http://127.0.0.1:8233)',
    ]);
  });

  test('with a key it serves on 127.0.0.1 until stopped, naming the key id and origins, never the key', async () => {
    const key = randomBytes(32).toString('base64');
    const stop = new AbortController();
    const out: string[] = [];
    const running = runCodecServer({ port: 0, out: (l) => out.push(l), signal: stop.signal, env: { MCP_HOST_ENCRYPTION_KEY: key, MCP_HOST_ENCRYPTION_KEY_ID: 'k1' } });
    while (out.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    const url = /codec server on (http:\/\/127\.0\.0\.1:\d+)/.exec(out[0] ?? '')?.[1];
    expect(url).toBeDefined();
    expect(out[0]).toContain('payload encryption on, key id "k1"');
    expect(out[0]).toContain(defaultWebUiOrigins({}).join(', '));
    expect(out.join('\n')).not.toContain(key);
    // It decodes with the key it was given (not only with what the process environment holds).
    const [encrypted] = await new EncryptionCodec(encryptionKeyringFromEnv({ MCP_HOST_ENCRYPTION_KEY: key, MCP_HOST_ENCRYPTION_KEY_ID: 'k1' })).encode([defaultPayloadConverter.toPayload('plain')]);
    const body = { payloads: [{ metadata: Object.fromEntries(Object.entries(encrypted?.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])), data: Buffer.from(encrypted?.data ?? []).toString('base64') }] };
    const decoded = (await (await fetch(`${url}/decode`, { method: 'POST', body: JSON.stringify(body) })).json()) as { payloads: Array<{ data: string }> };
    expect(Buffer.from(decoded.payloads[0]?.data ?? '', 'base64').toString()).toBe('"plain"');
    stop.abort();
    await running;
    await expect(fetch(`${url}/decode`, { method: 'POST', body: '{"payloads":[]}' })).rejects.toThrow();
  });
});
