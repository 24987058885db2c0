/**
 * A real S3-compatible server for the S3 payload-store tests: Versity Gateway (built with Go into
 * the project's cache by `npm run setup:s3`, scripts/ensure-versitygw.ts) serving the S3 API over a
 * temp dir of its own (its `posix` backend, object metadata in a sidecar dir so no extended
 * attributes are needed), on a free port of 127.0.0.1, with a root key made up per server. The
 * test's bucket is made through the S3 API, and what it holds is listed through it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client, type _Object } from '@aws-sdk/client-s3';
import { VERSITYGW_VERSION, versitygwBinaryPath } from '../../scripts/ensure-versitygw';
import { freePort } from '../../src/temporal/free-port';
import { pollUntil } from './poll-until';
import { stopServerProcess, watchServerProcess } from './stop-server-process';

/** What the tests need to know to run or skip: the binary in the cache (`.ci/run` builds it). */
export const S3_SERVER = { name: `Versity Gateway v${VERSITYGW_VERSION} (an S3-compatible server built with Go into the cache)`, install: 'npm run setup:s3' };

/** True when the cached binary exists. */
export function s3ServerInstalled(): boolean {
  return fs.existsSync(versitygwBinaryPath());
}

/** A running S3-compatible server with one bucket. */
export interface S3Server {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  bucket: string;
  /**
   * The environment of a worker or client whose payload store is this server's bucket under
   * `prefix`: the store's settings and the AWS chain's standard variables for the credentials.
   */
  env(prefix: string): Record<string, string>;
  /** The objects under `prefix`, by the S3 API (ListObjectsV2). */
  list(prefix: string): Promise<_Object[]>;
  /** The directory the server keeps its objects in (bucket directories below it). */
  dataDir: string;
  /** The server's own output so far (for failures). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the server and makes `bucket`; resolves once it answers. */
export async function startS3Server(bucket = 'mcp-host-payloads'): Promise<S3Server> {
  // As the host's driver does (src/temporal/payload-store/s3-driver.ts): no Node 20 notice on the test's output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-s3-'));
  const dataDir = path.join(dir, 'data');
  const metaDir = path.join(dir, 'meta');
  fs.mkdirSync(dataDir);
  fs.mkdirSync(metaDir);
  const port = await freePort();
  const credentials = { accessKeyId: `test${randomBytes(6).toString('hex')}`, secretAccessKey: randomBytes(18).toString('base64url') };
  // The root key by environment (the gateway's own variables), not on a command line others can read.
  const child: ChildProcess = spawn(versitygwBinaryPath(), ['--port', `127.0.0.1:${port}`, '--quiet', 'posix', '--sidecar', metaDir, dataDir], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', ROOT_ACCESS_KEY_ID: credentials.accessKeyId, ROOT_SECRET_ACCESS_KEY: credentials.secretAccessKey },
  });
  const { lines, exited } = watchServerProcess(child, versitygwBinaryPath());
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  const stop = async (): Promise<void> => {
    client.destroy();
    await stopServerProcess(child, exited, dir);
  };
  try {
    await pollUntil(
      `the S3 server on ${endpoint} to make bucket ${bucket}`,
      async () => {
        if (child.exitCode !== null) throw new Error('exited');
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        return true;
      },
      30_000,
    );
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}:\n${lines.join('')}`);
  }
  return {
    endpoint,
    bucket,
    dataDir,
    env: (prefix) => ({
      MCP_HOST_PAYLOAD_STORE: `s3://${bucket}/${prefix}`,
      MCP_HOST_PAYLOAD_S3_ENDPOINT: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    }),
    list: async (prefix) => {
      const objects: _Object[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token !== undefined ? { ContinuationToken: token } : {}) }));
        objects.push(...(page.Contents ?? []));
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return objects;
    },
    output: () => lines.join(''),
    stop,
  };
}
