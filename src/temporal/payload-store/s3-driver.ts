/**
 * A Temporal external-storage driver (`@temporalio/common` 1.24, experimental) that keeps each
 * large payload as an object of an S3 bucket (AWS, or an S3-compatible server addressed path-style),
 * under `<prefix>/sha256/<hex>`: content-addressed like the local-file driver, so a retried task or
 * a state carried from run to run writes the same object again rather than a new one, and any
 * worker or client with the same setting reads what another wrote, with no shared disk.
 *
 * Why not `@temporalio/external-storage-s3`: on npm it exists only at 1.22.0, with exact
 * dependencies on `@temporalio/common` and `@temporalio/proto` 1.22.0, so installing it beside this
 * project's 1.24 SDK nests a second copy of both (and of protobufjs); it has no key prefix (its keys
 * start at `v0/ns/…`), and it ships no AWS SDK client, only the interface of one. Its claims have
 * the shape this driver writes (`bucket`, `key`, `hashAlgorithm`, `hashValue`), so once a release
 * follows the SDK, it can be registered under this driver's name ({@link S3_DRIVER_NAME}, its
 * `driverName` option) and read the references already in histories.
 *
 * Objects are written once and, when the same content is stored again more than a day later,
 * written again, so their age (what an S3 lifecycle rule expires by) follows the newest history
 * that references them (README, "Large payloads").
 */
import { createHash } from 'node:crypto';
import { StorageDriverClaim, type Payload, type StorageDriver, type StorageDriverRetrieveContext, type StorageDriverStoreContext } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { S3Client } from '@aws-sdk/client-s3';
import { PayloadStoreError } from '../../errors/payload-store-error';
import { s3StoreUrl, type S3PayloadStoreSetting } from './payload-store-setting';
import { createS3Client, describeS3Error, isS3NotFound, s3Status } from './s3-client';

/** The driver's name in the references it writes (stable: histories keep them). */
export const S3_DRIVER_NAME = 'mcp-host-s3';

/** An object stored again after this long is rewritten, so that its age restarts (see the file comment). */
export const S3_REFRESH_AFTER_MS = 24 * 60 * 60 * 1000;

/** How long one request may take (a few megabytes each way). */
const S3_REQUEST_TIMEOUT_MS = 60_000;


/** The payload store in an S3 bucket. */
export class S3Driver implements StorageDriver {
  readonly name = S3_DRIVER_NAME;
  readonly type = 'mcp-host.s3';
  private client: S3Client | undefined;

  constructor(readonly setting: S3PayloadStoreSetting) {}

  /** The object key of a payload with this hash. */
  keyOf(sha256: string): string {
    return `${this.setting.prefix === '' ? '' : `${this.setting.prefix}/`}sha256/${sha256}`;
  }

  /**
   * The SDK client, made at first use: the AWS SDK is loaded only by a process whose store is S3,
   * and finds credentials (and, without `AWS_REGION`, the region) in its default chain.
   */
  private s3(): S3Client {
    this.client ??= createS3Client(this.setting, S3_REQUEST_TIMEOUT_MS);
    return this.client;
  }

  async store(context: StorageDriverStoreContext, payloads: Payload[]): Promise<StorageDriverClaim[]> {
    // One upload per distinct object, however often the batch holds it.
    const uploads = new Map<string, Promise<void>>();
    return Promise.all(
      payloads.map(async (payload) => {
        const bytes = temporal.api.common.v1.Payload.encode(payload).finish();
        const digest = createHash('sha256').update(bytes).digest();
        const sha256 = digest.toString('hex');
        const key = this.keyOf(sha256);
        let upload = uploads.get(key);
        if (upload === undefined) {
          upload = this.putIfAbsent(key, bytes, digest.toString('base64'), context.abortSignal);
          uploads.set(key, upload);
        }
        await upload;
        return new StorageDriverClaim({ bucket: this.setting.bucket, key, hashAlgorithm: 'sha256', hashValue: sha256 });
      }),
    );
  }

  /** Writes the object unless the same one is there and recent (see {@link S3_REFRESH_AFTER_MS}). */
  private async putIfAbsent(key: string, bytes: Uint8Array, sha256Base64: string, abortSignal: AbortSignal | undefined): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see s3()
    const { HeadObjectCommand, PutObjectCommand } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
    const { bucket } = this.setting;
    const options = abortSignal !== undefined ? { abortSignal } : {};
    try {
      const head = await this.s3()
        .send(new HeadObjectCommand({ Bucket: bucket, Key: key }), options)
        .catch((err: unknown) => {
          // Without s3:ListBucket, S3 answers a missing key's HEAD with 403, not 404: write it then,
          // and a real lack of rights fails on the PUT.
          if (isS3NotFound(err) || s3Status(err) === 403) return undefined;
          throw err;
        });
      const fresh = head?.LastModified !== undefined && Date.now() - head.LastModified.getTime() < S3_REFRESH_AFTER_MS;
      if (head?.ContentLength === bytes.length && fresh) return;
      // The server checks the bytes against their SHA-256 before it keeps them.
      await this.s3().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: 'application/octet-stream', ChecksumSHA256: sha256Base64 }), options);
    } catch (err) {
      throw new PayloadStoreError(`payload store: cannot write s3://${bucket}/${key} (${describeS3Error(err)})`, 'payload_store.unavailable', { cause: err });
    }
  }

  async retrieve(context: StorageDriverRetrieveContext, claims: StorageDriverClaim[]): Promise<Payload[]> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see s3()
    const { GetObjectCommand } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
    const options = context.abortSignal !== undefined ? { abortSignal: context.abortSignal } : {};
    return Promise.all(
      claims.map(async (claim) => {
        const { bucket, key, hashAlgorithm, hashValue } = claim.claimData;
        if (bucket === undefined || key === undefined || hashAlgorithm !== 'sha256' || hashValue === undefined || !/^[0-9a-f]{64}$/.test(hashValue)) {
          throw new PayloadStoreError(`payload store: a reference without a bucket, a key and a sha256 (${JSON.stringify(claim.claimData)})`, 'payload_store.corrupt');
        }
        let bytes: Uint8Array;
        try {
          const answer = await this.s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }), options);
          if (answer.Body === undefined) throw new Error('an answer without a body');
          bytes = await answer.Body.transformToByteArray();
        } catch (err) {
          if (isS3NotFound(err)) {
            throw new PayloadStoreError(
              `payload store: s3://${bucket}/${key} is not there (this process's store is ${s3StoreUrl(this.setting)}); was it expired by a lifecycle rule shorter than the histories that reference it?`,
              'payload_store.missing',
              { cause: err },
            );
          }
          // The SDK checks the body against the SHA-256 the object was written with, before this driver does.
          if (/checksum mismatch/i.test(describeS3Error(err))) {
            throw new PayloadStoreError(`payload store: s3://${bucket}/${key} does not match its hash (${describeS3Error(err)})`, 'payload_store.corrupt', { cause: err });
          }
          throw new PayloadStoreError(`payload store: cannot read s3://${bucket}/${key} (${describeS3Error(err)})`, 'payload_store.unavailable', { cause: err });
        }
        if (createHash('sha256').update(bytes).digest('hex') !== hashValue) {
          throw new PayloadStoreError(`payload store: s3://${bucket}/${key} does not match its hash`, 'payload_store.corrupt');
        }
        return temporal.api.common.v1.Payload.decode(bytes);
      }),
    );
  }
}
