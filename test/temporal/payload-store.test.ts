/** The local-file driver of the external payload store: content-addressed, checked, shared by path. */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { StorageDriverClaim, type Payload } from '@temporalio/common';
import { payloadStoreDir } from '../../src/temporal/payload-store/external-storage';
import { LocalFileDriver } from '../../src/temporal/payload-store/local-file-driver';

const encoder = new TextEncoder();

function payload(text: string): Payload {
  return { metadata: { encoding: encoder.encode('json/plain') }, data: encoder.encode(JSON.stringify(text)) };
}

describe('LocalFileDriver', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'payload-store-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('stores payloads by content hash and gives them back byte for byte, to another driver on the same directory too', async () => {
    const big = payload('x'.repeat(300_000));
    const small = payload('hello');
    const claims = await new LocalFileDriver(dir).store({}, [big, small, big]);
    expect(claims[0]?.claimData.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(claims[2]?.claimData).toEqual(claims[0]?.claimData);
    const files = (await readdir(dir, { recursive: true })).filter((f) => f.length > 3);
    expect(files).toHaveLength(2); // the same payload twice is one file
    const back = await new LocalFileDriver(dir).retrieve({}, claims);
    const bytes = (p: Payload | undefined): string => Buffer.from(p?.data ?? []).toString('base64');
    const encoding = (p: Payload | undefined): string => Buffer.from(p?.metadata?.encoding ?? []).toString();
    expect(back.map(bytes)).toEqual([big, small, big].map(bytes));
    expect(back.map(encoding)).toEqual(['json/plain', 'json/plain', 'json/plain']);
  });

  test('a missing or altered file fails loudly, naming the store', async () => {
    const [claim] = await new LocalFileDriver(dir).store({}, [payload('data')]);
    const sha = claim!.claimData.sha256!;
    await writeFile(path.join(dir, sha.slice(0, 2), sha), 'tampered');
    await expect(new LocalFileDriver(dir).retrieve({}, [claim!])).rejects.toThrow(/does not match its hash/);
    const other = await mkdtemp(path.join(os.tmpdir(), 'payload-store-'));
    await expect(new LocalFileDriver(other).retrieve({}, [claim!])).rejects.toThrow(/MCP_HOST_PAYLOAD_DIR/);
    await rm(other, { recursive: true, force: true });
    await expect(new LocalFileDriver(dir).retrieve({}, [new StorageDriverClaim({ sha256: '../etc/passwd' })])).rejects.toThrow(/valid sha256/);
  });

  test('the store directory: MCP_HOST_PAYLOAD_DIR, else under XDG_DATA_HOME, else ~/.local/share', () => {
    expect(payloadStoreDir({ MCP_HOST_PAYLOAD_DIR: '/srv/shared/payloads' })).toBe('/srv/shared/payloads');
    expect(payloadStoreDir({ XDG_DATA_HOME: '/data' })).toBe('/data/durable-mcp-host/payloads');
    expect(payloadStoreDir({})).toBe(path.join(os.homedir(), '.local', 'share', 'durable-mcp-host', 'payloads'));
  });
});
