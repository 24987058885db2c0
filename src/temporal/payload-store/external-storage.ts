import os from 'node:os';
import path from 'node:path';
import { ExternalStorage, type Payload, type StorageDriver, type StorageDriverClaim, type StorageDriverRetrieveContext, type StorageDriverStoreContext } from '@temporalio/common';
import { PayloadStoreError } from '../../errors/payload-store-error';
import { LocalFileDriver } from './local-file-driver';
import { PAYLOAD_STORE_ENV, payloadStoreSetting, type PayloadStoreSetting } from './payload-store-setting';
import { S3_DRIVER_NAME, S3Driver } from './s3-driver';

/** Payloads at least this large (after the gzip codec) go to the store: 256 KiB, the SDK's default. */
export const PAYLOAD_STORE_THRESHOLD = 256 * 1024;

/**
 * The directory of the payload store: `MCP_HOST_PAYLOAD_DIR`, else `durable-mcp-host/payloads`
 * under `$XDG_DATA_HOME` (default `~/.local/share`), one place per user that the worker and every
 * CLI or client of this machine find whatever their working directory.
 */
export function payloadStoreDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[PAYLOAD_STORE_ENV.dir];
  if (configured !== undefined && configured !== '') return path.resolve(configured);
  const dataHome = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(dataHome, 'durable-mcp-host', 'payloads');
}

/**
 * The S3 driver of the environment's setting, read when a payload is stored or retrieved (as the
 * encryption keys are) and kept while the setting stays the same: a process, or a test, that sets
 * `MCP_HOST_PAYLOAD_STORE` before its first Temporal call gets it. Always registered, so that a
 * reference to S3 met by a process without the setting fails by saying so.
 */
class EnvironmentS3Driver implements StorageDriver {
  readonly name = S3_DRIVER_NAME;
  readonly type = 'mcp-host.s3';
  private cached: { signature: string; driver: S3Driver } | undefined;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The driver of the current setting, or undefined when the store is the local directory. */
  current(): S3Driver | undefined {
    const setting: PayloadStoreSetting = payloadStoreSetting(this.env);
    if (setting.kind !== 's3') return undefined;
    const signature = JSON.stringify(setting);
    if (this.cached?.signature !== signature) this.cached = { signature, driver: new S3Driver(setting) };
    return this.cached.driver;
  }

  private required(): S3Driver {
    const driver = this.current();
    if (driver === undefined) {
      throw new PayloadStoreError(
        `payload store: this payload is in S3, and this process has no ${PAYLOAD_STORE_ENV.store}; set it (and ${PAYLOAD_STORE_ENV.s3Endpoint}, AWS_REGION and AWS credentials) as the workers have them`,
        'payload_store.not_configured',
      );
    }
    return driver;
  }

  store(context: StorageDriverStoreContext, payloads: Payload[]): Promise<StorageDriverClaim[]> {
    return this.required().store(context, payloads);
  }

  retrieve(context: StorageDriverRetrieveContext, claims: StorageDriverClaim[]): Promise<Payload[]> {
    return this.required().retrieve(context, claims);
  }
}

/**
 * Temporal's external storage for this project's data converter: payloads of
 * {@link PAYLOAD_STORE_THRESHOLD} or more (a conversation's whole state carried through
 * continue-as-new, a big tool result, a long transcript answered to a query) are written to the
 * store and replaced in the history by a small reference. The store is the local directory `dir`
 * (the default; for workers and clients on several machines it must be shared by all of them), or
 * an S3 bucket when `MCP_HOST_PAYLOAD_STORE=s3://bucket/prefix` is set (README, "Large payloads").
 * Both drivers stay registered, so references written before a switch are still read.
 */
export function createExternalStorage(dir: string = payloadStoreDir(), env: NodeJS.ProcessEnv = process.env): ExternalStorage {
  const local = new LocalFileDriver(dir);
  const s3 = new EnvironmentS3Driver(env);
  return new ExternalStorage({
    drivers: [local, s3],
    // The registered drivers themselves (the runner checks): S3 while the environment names it.
    driverSelector: () => (s3.current() !== undefined ? s3 : local),
    payloadSizeThreshold: PAYLOAD_STORE_THRESHOLD,
  });
}
