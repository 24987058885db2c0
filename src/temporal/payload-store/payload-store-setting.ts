/**
 * Where the external payload store is, read from the environment: the local directory (the
 * default, `MCP_HOST_PAYLOAD_DIR`) or an S3 bucket (`MCP_HOST_PAYLOAD_STORE=s3://bucket/prefix`,
 * `MCP_HOST_PAYLOAD_S3_ENDPOINT` for an S3-compatible server, the region from `AWS_REGION`).
 * Credentials are never a setting of this project: the AWS SDK finds them in its standard chain
 * (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE` and `~/.aws`, SSO, web identity,
 * the container's or the instance's role), so nothing the host prints or records holds one.
 */
import { PayloadStoreError } from '../../errors/payload-store-error';

/** The variables, by role. */
export const PAYLOAD_STORE_ENV = {
  store: 'MCP_HOST_PAYLOAD_STORE',
  dir: 'MCP_HOST_PAYLOAD_DIR',
  s3Endpoint: 'MCP_HOST_PAYLOAD_S3_ENDPOINT',
  region: 'AWS_REGION',
} as const;

/** An S3 bucket (or an S3-compatible server's) holding the payloads under a prefix. */
export interface S3PayloadStoreSetting {
  kind: 's3';
  bucket: string;
  /** The key prefix, without leading or trailing `/`; empty for the bucket's root. */
  prefix: string;
  /** `AWS_REGION`; unset: the SDK's chain (the profile's region), or `us-east-1` with an endpoint. */
  region: string | undefined;
  /** An S3-compatible server's URL (`MCP_HOST_PAYLOAD_S3_ENDPOINT`), addressed path-style; unset: AWS. */
  endpoint: string | undefined;
}

/** The store: the local directory, or S3. */
export type PayloadStoreSetting = { kind: 'local' } | S3PayloadStoreSetting;

const nonEmpty = (value: string | undefined): string | undefined => (value !== undefined && value.trim() !== '' ? value.trim() : undefined);

/** S3's rules for a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Reads the store's setting from `env`.
 * @throws PayloadStoreError (`payload_store.bad_setting`) for a value that cannot be used, naming the variable.
 */
export function payloadStoreSetting(env: NodeJS.ProcessEnv = process.env): PayloadStoreSetting {
  const store = nonEmpty(env[PAYLOAD_STORE_ENV.store]);
  const endpoint = nonEmpty(env[PAYLOAD_STORE_ENV.s3Endpoint]);
  if (store === undefined) {
    if (endpoint !== undefined) throw badSetting(`${PAYLOAD_STORE_ENV.s3Endpoint} is set but ${PAYLOAD_STORE_ENV.store} is not (set it to s3://bucket/prefix)`);
    return { kind: 'local' };
  }
  const { bucket, prefix } = parseS3Url(store, PAYLOAD_STORE_ENV.store, `unset it for the local directory, ${PAYLOAD_STORE_ENV.dir}`);
  if (endpoint !== undefined) checkS3Endpoint(endpoint, PAYLOAD_STORE_ENV.s3Endpoint);
  return { kind: 's3', bucket, prefix, region: nonEmpty(env[PAYLOAD_STORE_ENV.region]), endpoint };
}

/**
 * The bucket and prefix of `s3://bucket/prefix`, the value of `variable` (also the OAuth token
 * store's, src/mcp/oauth/oauth-store-setting.ts).
 * @param otherwise What else the variable can say, for the message (e.g. "unset it for …").
 * @throws PayloadStoreError (`payload_store.bad_setting`) naming the variable.
 */
export function parseS3Url(value: string, variable: string, otherwise: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(value);
  if (!match) throw badSetting(`${variable}=${JSON.stringify(value)} is not s3://bucket/prefix (${otherwise})`);
  const bucket = match[1] ?? '';
  if (!BUCKET_NAME.test(bucket)) throw badSetting(`${variable}: ${JSON.stringify(bucket)} is not an S3 bucket name (3 to 63 lowercase letters, digits, dots and hyphens)`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '.' || part === '..') || /\/\//.test(prefix)) {
    throw badSetting(`${variable}: the prefix ${JSON.stringify(prefix)} has an empty, "." or ".." segment`);
  }
  return { bucket, prefix };
}

/**
 * Checks an S3-compatible server's URL, the value of `variable`.
 * @throws PayloadStoreError (`payload_store.bad_setting`) naming the variable, never quoting credentials.
 */
export function checkS3Endpoint(endpoint: string, variable: string): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw badSetting(`${variable}=${JSON.stringify(endpoint)} is not a URL (e.g. http://127.0.0.1:7070)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badSetting(`${variable}: ${JSON.stringify(endpoint)} is not http(s)`);
  // Credentials belong to the AWS chain; one in the URL would be printed with the setting.
  if (url.username !== '' || url.password !== '') throw badSetting(`${variable} must not carry credentials (the AWS chain provides them: AWS_ACCESS_KEY_ID, AWS_PROFILE, …)`);
}

function badSetting(message: string): PayloadStoreError {
  return new PayloadStoreError(message, 'payload_store.bad_setting');
}

/** `s3://bucket/prefix`, as the setting is written. */
export function s3StoreUrl(setting: S3PayloadStoreSetting): string {
  return `s3://${setting.bucket}${setting.prefix === '' ? '' : `/${setting.prefix}`}`;
}

/**
 * One line for a start-up log: where large payloads go (never a credential).
 * @param dir The local directory, named when it is the store.
 */
export function describePayloadStore(setting: PayloadStoreSetting, dir: string): string {
  if (setting.kind === 'local') return `Payload store: the directory ${dir} (payloads of 256 KiB and more)`;
  const where = setting.endpoint !== undefined ? ` at ${setting.endpoint} (path-style)` : '';
  const region = setting.region ?? (setting.endpoint !== undefined ? 'us-east-1' : 'the AWS profile\'s');
  return `Payload store: ${s3StoreUrl(setting)}${where}, region ${region}, credentials from the AWS default chain (payloads of 256 KiB and more)`;
}
