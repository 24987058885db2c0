/**
 * The S3 driver of the external payload store against a real S3-compatible server (Versity
 * Gateway, test/support/s3-server.ts): content-addressed keys under the prefix, one object per
 * content, bytes checked both ways; the external storage of the data converter choosing it from
 * the environment, and still reading the local directory's references; its errors typed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { ExternalStorageRunner } from '@temporalio/common/lib/internal-non-workflow/external-storage-runner';
import { PayloadStoreError } from '../../src/errors/payload-store-error';
import { createExternalStorage } from '../../src/temporal/payload-store/external-storage';
import { payloadStoreSetting, type S3PayloadStoreSetting } from '../../src/temporal/payload-store/payload-store-setting';
import { S3Driver } from '../../src/temporal/payload-store/s3-driver';
import { optionalServerTest } from '../support/optional-server';
import { S3_SERVER, s3ServerInstalled, startS3Server, type S3Server } from '../support/s3-server';

const s3Test = optionalServerTest(S3_SERVER, s3ServerInstalled());
const encoder = new TextEncoder();
const payload = (text: string): Payload => ({ metadata: { encoding: encoder.encode('json/plain') }, data: encoder.encode(JSON.stringify(text)) });
const text = (p: Payload | undefined): string => JSON.parse(Buffer.from(p?.data ?? []).toString('utf8')) as string;

describe('S3Driver against a real S3-compatible server', () => {
  let server: S3Server | undefined;
  let dir: string;
  const saved: Record<string, string | undefined> = {};
  const setting = (prefix: string): S3PayloadStoreSetting => payloadStoreSetting(server?.env(prefix) ?? {}) as S3PayloadStoreSetting;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'payload-store-s3-'));
    if (!s3ServerInstalled()) return;
    server = await startS3Server();
    // The credentials as a deployment gives them: the AWS SDK's standard variables.
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
      saved[name] = process.env[name];
      process.env[name] = server.env('')[name];
    }
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  s3Test('stores by SHA-256 under the prefix, one object per content, and another driver reads them back byte for byte', async () => {
    const big = payload('x'.repeat(300_000));
    const claims = await new S3Driver(setting('unit/a')).store({}, [big, payload('hello'), big]);
    const bytes = temporal.api.common.v1.Payload.encode(big).finish();
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(claims[0]?.claimData).toEqual({ bucket: server?.bucket, key: `unit/a/sha256/${sha256}`, hashAlgorithm: 'sha256', hashValue: sha256 });
    expect(claims[2]?.claimData).toEqual(claims[0]?.claimData);
    const objects = (await server?.list('unit/a/')) ?? [];
    expect(objects.map((o) => o.Key).sort()).toEqual([claims[0]?.claimData.key, claims[1]?.claimData.key].sort());
    const back = await new S3Driver(setting('elsewhere')).retrieve({}, claims);
    expect(back.map(text)).toEqual(['x'.repeat(300_000), 'hello', 'x'.repeat(300_000)]);

    // Stored again soon after: the object is not rewritten (its date stays).
    const before = objects.find((o) => o.Key === claims[0]?.claimData.key)?.LastModified?.getTime();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await new S3Driver(setting('unit/a')).store({}, [big]);
    const after = (await server?.list('unit/a/'))?.find((o) => o.Key === claims[0]?.claimData.key)?.LastModified?.getTime();
    expect(after).toBe(before);
  });

  s3Test('a missing, a changed and an unreachable object each fail with their own code', async () => {
    const driver = new S3Driver(setting('unit/b'));
    const [claim] = await driver.store({}, [payload('changed later')]);
    if (!claim || !server) throw new Error('no claim');
    fs.writeFileSync(path.join(server.dataDir, server.bucket, claim.claimData.key ?? ''), 'something else');
    await expect(driver.retrieve({}, [claim])).rejects.toMatchObject({ name: 'PayloadStoreError', code: 'payload_store.corrupt' });
    const missing = { ...claim.claimData, key: 'unit/b/sha256/0000' };
    await expect(driver.retrieve({}, [{ claimData: missing }])).rejects.toMatchObject({ code: 'payload_store.missing', message: expect.stringMatching(/lifecycle rule/) as string });
    const offline = new S3Driver({ ...setting('unit/b'), endpoint: 'http://127.0.0.1:9' });
    await expect(offline.store({}, [payload('nowhere')])).rejects.toMatchObject({ code: 'payload_store.unavailable' });
  });

  s3Test("the data converter's external storage follows MCP_HOST_PAYLOAD_STORE, and still reads the local directory's references", async () => {
    const big = payload('y'.repeat(400_000));
    const env: NodeJS.ProcessEnv = {};
    const runner = new ExternalStorageRunner(createExternalStorage(dir, env));
    const [local] = await runner.store([big]);
    expect(fs.readdirSync(dir)).not.toEqual([]);
    Object.assign(env, server?.env('unit/c'));
    const [remote] = await runner.store([big]);
    expect(Buffer.from(remote?.data ?? []).toString('utf8')).toContain('mcp-host-s3');
    expect((await server?.list('unit/c/'))?.length).toBe(1);
    // Both kinds of reference read back, the local one with S3 configured...
    expect((await runner.retrieve([local as Payload, remote as Payload])).map(text)).toEqual(['y'.repeat(400_000), 'y'.repeat(400_000)]);
    // ...and an S3 one in a process without the setting says what is missing.
    const bare = new ExternalStorageRunner(createExternalStorage(dir, {}));
    await expect(bare.retrieve([remote as Payload])).rejects.toBeInstanceOf(PayloadStoreError);
    await expect(bare.retrieve([remote as Payload])).rejects.toMatchObject({ code: 'payload_store.not_configured', message: expect.stringMatching(/MCP_HOST_PAYLOAD_STORE/) as string });
  });
});
