/**
 * The OAuth token store of a fleet: one object per MCP server in an S3 bucket (AWS, or an
 * S3-compatible server addressed path-style), `<prefix>/oauth/<server name>.json`, sealed with the
 * project's payload key (sealed-entry.ts), so that `mcp-host login` on a laptop and workers on
 * other machines share tokens with no shared file system, and the bucket holds no token in clear.
 *
 * Concurrency rests on S3's conditional writes (PutObject `If-None-Match: *` and `If-Match: <etag>`,
 * answered 412 when the condition fails):
 * - `update` is compare-and-swap: read the object and its ETag, change the entry, write it back only
 *   if the ETag is still the same (or, for a new object, only if there is none); a 412 means another
 *   writer came first, so it reads again and re-applies the change.
 * - `exclusive` (a refresh) holds a lease object, `<prefix>/oauth/<server name>.lease`, created with
 *   `If-None-Match: *` and holding its expiry; a stale lease (its holder died) is taken over only by
 *   a conditional overwrite `If-Match: <its etag>`, so two waiters never both take it; it is deleted
 *   with `If-Match` on the holder's own ETag. A lease's expiry is the holder's clock: machines of
 *   the fleet keep their clocks within seconds (NTP), far below {@link REFRESH_LEASE_MS}.
 *
 * Errors are typed: the store unreachable or refusing (network, credentials, permissions), or a
 * lease held too long, is `mcp.oauth_store_unavailable` (retried); no encryption key, an object that
 * does not open, is `mcp.oauth_store_invalid` (not retried). No message holds a token.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { OAuthStoreError } from '../../errors/oauth-store-error';
import { ENCRYPTION_ENV, type EncryptionKey, type EncryptionKeyring } from '../../temporal/encryption-keys';
import { REFRESH_LEASE_MS, REFRESH_LEASE_WAIT_MS, type EntryChange, type OAuthStore, type StoredServerAuth } from './oauth-store';
import { s3OAuthStoreUrl, type S3OAuthStoreSetting } from './oauth-store-setting';
import { openEntry, sealEntry } from './sealed-entry';
import { OAUTH_STORE_ENV } from './token-store-path';
import { createS3Client, describeS3Error, isS3NotFound, s3Status } from '../../temporal/payload-store/s3-client';

/** How long one request to S3 may take: a token object is a few hundred bytes. */
const S3_REQUEST_TIMEOUT_MS = 10_000;
/** How long `update` keeps losing compare-and-swap races before it gives up (retryably). */
const UPDATE_WAIT_MS = 15_000;
/** How many times a read is made when its body and checksum or ETag disagree (see `read`), and how far apart. */
const CONSISTENT_READ_ATTEMPTS = 8;
const CONSISTENT_READ_GAP_MS = 20;
/** How often a waiter looks at a held lease again (with jitter). */
const LEASE_POLL_MS = 50;

/** A condition that failed: 412, or 409 (S3's answer to two conditional writes of one key at once). */
const isConflict = (err: unknown): boolean => s3Status(err) === 412 || s3Status(err) === 409;
/** A single-part PUT's ETag on most S3 servers: the body's MD5 in quotes. */
const md5Etag = (body: string): string => `"${createHash('md5').update(body, 'utf8').digest('hex')}"`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (ms: number): number => ms / 2 + Math.random() * ms;

/** An object as read: its body and ETag, or none. */
interface ReadObject {
  body: string;
  etag: string;
}

/** The lease object's body: who holds it, until when. Nothing secret. */
interface LeaseBody {
  holder: string;
  expiresAt: number;
}

/** See the module comment. */
export class S3OAuthStore implements OAuthStore {
  private client: S3Client | undefined;
  private readonly key: EncryptionKey;
  /** Whether the server's ETags are the MD5 of the body (see `read`); undefined until seen. */
  private etagsAreMd5: boolean | undefined;

  /**
   * @throws OAuthStoreError (`mcp.oauth_store_invalid`) without a current encryption key: the S3 store never holds a token in clear.
   */
  constructor(
    readonly setting: S3OAuthStoreSetting,
    private readonly keyring: EncryptionKeyring,
  ) {
    if (keyring.current === undefined) {
      throw new OAuthStoreError(
        `the S3 OAuth token store (${OAUTH_STORE_ENV}=${s3OAuthStoreUrl(setting)}) keeps tokens encrypted with the payload key: set ${ENCRYPTION_ENV.key} (openssl rand -base64 32), the same on every worker and wherever \`mcp-host login\` runs`,
        'mcp.oauth_store_invalid',
      );
    }
    this.key = keyring.current;
  }

  get location(): string {
    return s3OAuthStoreUrl(this.setting);
  }

  /** The object key of server `name`'s entry (the name is URI-encoded: any mcp.json name is one key). */
  objectKey(name: string): string {
    return `${this.setting.prefix === '' ? '' : `${this.setting.prefix}/`}oauth/${encodeURIComponent(name)}.json`;
  }

  /** The object key of server `name`'s refresh lease. */
  leaseKey(name: string): string {
    return `${this.setting.prefix === '' ? '' : `${this.setting.prefix}/`}oauth/${encodeURIComponent(name)}.lease`;
  }

  async get(name: string, url: string): Promise<StoredServerAuth | undefined> {
    const object = await this.read(this.objectKey(name));
    if (object === undefined) return undefined;
    const entry = this.open(object.body, name);
    return entry.url === url ? entry : undefined;
  }

  async update(name: string, url: string, change: EntryChange): Promise<void> {
    const key = this.objectKey(name);
    const deadline = Date.now() + UPDATE_WAIT_MS;
    for (;;) {
      const object = await this.read(key);
      const current = object !== undefined ? this.open(object.body, name) : undefined;
      const next = change(current !== undefined && current.url === url ? { ...current } : { url });
      try {
        if (next === undefined) {
          if (object !== undefined) await this.delete(key, object.etag, 'delete');
        } else {
          await this.put(key, sealEntry({ ...next, url }, this.key, key), object !== undefined ? { IfMatch: object.etag } : { IfNoneMatch: '*' }, 'write');
        }
        return;
      } catch (err) {
        // Another writer came first (412), or deleted the object under an If-Match (404): read again.
        if (!(err instanceof ConditionFailed)) throw err;
        if (Date.now() > deadline) throw new OAuthStoreError(`the OAuth token store ${this.location}: ${key} kept changing under this writer for ${UPDATE_WAIT_MS} ms`, 'mcp.oauth_store_unavailable');
        await sleep(jitter(LEASE_POLL_MS));
      }
    }
  }

  async exclusive<T>(name: string, body: () => Promise<T>): Promise<T> {
    const key = this.leaseKey(name);
    const etag = await this.acquire(key);
    try {
      return await body();
    } finally {
      // Only our own lease: one taken over after ours went stale stays. A failure here leaves the
      // lease to expire; it does not undo the refresh.
      await this.delete(key, etag, 'release').catch(() => undefined);
    }
  }

  /** Creates the lease object (or takes over a stale one); resolves with its ETag. */
  private async acquire(key: string): Promise<string> {
    const holder = randomBytes(8).toString('hex');
    const deadline = Date.now() + REFRESH_LEASE_WAIT_MS;
    const leaseBody = (): string => JSON.stringify({ holder, expiresAt: Date.now() + REFRESH_LEASE_MS } satisfies LeaseBody);
    for (;;) {
      try {
        return await this.put(key, leaseBody(), { IfNoneMatch: '*' }, 'create the lease');
      } catch (err) {
        if (!(err instanceof ConditionFailed)) throw err;
      }
      const held = await this.read(key);
      if (held !== undefined && leaseExpired(held.body)) {
        try {
          return await this.put(key, leaseBody(), { IfMatch: held.etag }, 'take over the stale lease');
        } catch (err) {
          if (!(err instanceof ConditionFailed)) throw err;
        }
      }
      if (Date.now() > deadline) {
        throw new OAuthStoreError(`the OAuth token store ${this.location}: the refresh lease ${key} stayed held for ${REFRESH_LEASE_WAIT_MS} ms`, 'mcp.oauth_store_unavailable');
      }
      await sleep(jitter(LEASE_POLL_MS));
    }
  }

  private open(body: string, name: string): StoredServerAuth {
    const key = this.objectKey(name);
    return openEntry(body, this.keyring, key, `s3://${this.setting.bucket}/${key}`);
  }

  /**
   * The object at `key`, or undefined when there is none, its body and ETag read consistently: an
   * S3-compatible server that keeps them apart (Versity Gateway's posix backend) can answer a read
   * racing a write with the checksum or ETag of one version and the body of the other, and a
   * compare-and-swap on such a pair would lose the other writer's change. So a read whose body
   * fails the SDK's checksum, or does not match an ETag that is its MD5 (a single-part PUT's, on
   * servers where ETags are MD5s: learned from this store's own writes), is read again.
   */
  private async read(key: string): Promise<ReadObject | undefined> {
    for (let attempt = 1; ; attempt++) {
      let object: ReadObject;
      try {
        object = await this.getObject(key);
      } catch (err) {
        if (err instanceof ConditionFailed && err.notFound) return undefined;
        if (attempt < CONSISTENT_READ_ATTEMPTS && err instanceof OAuthStoreError && /checksum mismatch/i.test(err.message)) {
          await sleep(jitter(CONSISTENT_READ_GAP_MS));
          continue;
        }
        throw err;
      }
      const matches = md5Etag(object.body) === object.etag;
      if (matches) this.etagsAreMd5 ??= true;
      if (matches || this.etagsAreMd5 === false) return object;
      if (attempt >= CONSISTENT_READ_ATTEMPTS) {
        if (this.etagsAreMd5 === true) throw this.unavailable('read', key, new Error(`the body and the ETag kept disagreeing over ${attempt} reads`));
        // Never matched here: this server's ETags are not MD5s (SSE-KMS, say).
        this.etagsAreMd5 = false;
        return object;
      }
      await sleep(jitter(CONSISTENT_READ_GAP_MS));
    }
  }

  /** PutObject under a condition; resolves with the new ETag. */
  private async put(key: string, body: string, condition: { IfMatch: string } | { IfNoneMatch: '*' }, what: string): Promise<string> {
    const { sdk, client } = this.s3();
    const answer = await this.guard(what, key, () => client.send(new sdk.PutObjectCommand({ Bucket: this.setting.bucket, Key: key, Body: body, ContentType: 'application/json', ...condition })));
    if (answer.ETag !== undefined) this.etagsAreMd5 ??= answer.ETag === md5Etag(body);
    if (answer.ETag === undefined) throw new OAuthStoreError(`the OAuth token store ${this.location}: the server answered a write of ${key} without an ETag`, 'mcp.oauth_store_unavailable');
    return answer.ETag;
  }

  /** DeleteObject of the version with ETag `ifMatch` only. */
  private async delete(key: string, ifMatch: string, what: string): Promise<void> {
    const { sdk, client } = this.s3();
    await this.guard(what, key, () => client.send(new sdk.DeleteObjectCommand({ Bucket: this.setting.bucket, Key: key, IfMatch: ifMatch })));
  }

  /** GetObject: the body and ETag. */
  private async getObject(key: string): Promise<ReadObject> {
    const { sdk, client } = this.s3();
    const answer = await this.guard('read', key, () => client.send(new sdk.GetObjectCommand({ Bucket: this.setting.bucket, Key: key })));
    if (answer.Body === undefined || answer.ETag === undefined) throw this.unavailable('read', key, new Error('an answer without a body or an ETag'));
    const body = answer.Body;
    // The SDK checks the body against its checksum as the stream ends.
    return { body: await this.guard('read', key, () => body.transformToString('utf8')), etag: answer.ETag };
  }

  /**
   * Runs one request. A failed condition (412, 409) or a missing object (404) becomes
   * {@link ConditionFailed}; anything else an `mcp.oauth_store_unavailable` error.
   */
  private async guard<T>(what: string, key: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (isConflict(err) || isS3NotFound(err)) throw new ConditionFailed(isS3NotFound(err));
      throw this.unavailable(what, key, err);
    }
  }

  private unavailable(what: string, key: string, err: unknown): OAuthStoreError {
    return new OAuthStoreError(`the OAuth token store ${this.location}: cannot ${what} ${key} (${describeS3Error(err)})`, 'mcp.oauth_store_unavailable', { cause: err });
  }

  /** The SDK client, made at first use; credentials (and without `AWS_REGION`, the region) from the default chain. */
  private s3(): { sdk: typeof import('@aws-sdk/client-s3'); client: S3Client } {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when the store is S3 (a large SDK the file store never needs)
    const sdk = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
    this.client ??= createS3Client(this.setting, S3_REQUEST_TIMEOUT_MS);
    return { sdk, client: this.client };
  }
}

/** A conditional request whose condition failed, or an object that is not there: the caller decides. */
class ConditionFailed extends Error {
  constructor(readonly notFound: boolean) {
    super(notFound ? 'no such object' : 'precondition failed');
  }
}

/** True for a lease body past its expiry, or one that cannot be read (never left to block for ever). */
function leaseExpired(body: string): boolean {
  try {
    const lease = JSON.parse(body) as Partial<LeaseBody>;
    return typeof lease.expiresAt !== 'number' || lease.expiresAt < Date.now();
  } catch {
    return true;
  }
}
