/**
 * The AWS SDK's S3 client as the two stores on S3 make it, and the reading of its errors: the
 * payload store (`s3-driver.ts`) and the OAuth token store (`src/mcp/oauth/s3-token-store.ts`).
 */
import type { S3Client } from '@aws-sdk/client-s3';

/** Where a store's client goes: region and endpoint from its setting; `requestTimeoutMs` sized to its objects. */
export interface S3ClientSetting {
  region?: string;
  /** An S3-compatible server: path-style addressing. */
  endpoint?: string;
}

/** How long connecting to S3 may take. */
const S3_CONNECT_TIMEOUT_MS = 5_000;

/**
 * A new client; credentials (and, without `AWS_REGION` or a region in the setting, the region)
 * from the SDK's default chain. The SDK is loaded only here, when a store is on S3.
 */
export function createS3Client(setting: S3ClientSetting, requestTimeoutMs: number): S3Client {
  // The SDK warns on Node 20 (the image's, and supported here: package.json `engines`) in
  // seven lines on every process's stderr; the lockfile holds a release that runs on it.
  // Setting the variable to `false` shows the warning again.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a store is S3 (a large SDK the local stores never need)
  const { S3Client: Client } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const { region, endpoint } = setting;
  return new Client({
    ...(region !== undefined ? { region } : endpoint !== undefined ? { region: 'us-east-1' } : {}),
    ...(endpoint !== undefined ? { endpoint, forcePathStyle: true } : {}),
    // The SDK waits forever by default: a store that hangs would hold a workflow task past its
    // timeout. Bounded, a failed request is retried by the SDK (3 attempts), then by Temporal.
    requestHandler: { connectionTimeout: S3_CONNECT_TIMEOUT_MS, requestTimeout: requestTimeoutMs, throwOnRequestTimeout: true },
  });
}

/** What the AWS SDK throws: a named error with the HTTP status. */
interface AwsError {
  name?: string;
  $metadata?: { httpStatusCode?: number };
  message?: string;
}

/** The HTTP status of an S3 error, when it got that far. */
export const s3Status = (err: unknown): number | undefined => (err as AwsError | undefined)?.$metadata?.httpStatusCode;

/** No such object (404, or the SDK's `NotFound` / `NoSuchKey`). */
export const isS3NotFound = (err: unknown): boolean => s3Status(err) === 404 || ['NotFound', 'NoSuchKey'].includes((err as AwsError | undefined)?.name ?? '');

/** One line for an error message: name, HTTP status, the SDK's message (never a body or a credential). */
export const describeS3Error = (err: unknown): string => {
  const e = err as AwsError | undefined;
  const status = s3Status(err);
  return `${e?.name ?? 'Error'}${status !== undefined ? ` (HTTP ${status})` : ''}: ${e?.message ?? String(err)}`;
};
