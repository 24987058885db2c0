/**
 * Reading the errors the AWS SDK's S3 client throws, for the two stores on S3: the payload store
 * (`s3-driver.ts`) and the OAuth token store (`src/mcp/oauth/s3-token-store.ts`).
 */

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
