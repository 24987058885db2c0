/**
 * Which OAuth token store the environment names, one variable for `mcp-host login` and every
 * worker: `MCP_HOST_OAUTH_STORE` is a file path (the file store, the default, at
 * {@link oauthStorePath}) or `s3://bucket/prefix` (the S3 store of a fleet without a shared file
 * system). The S3 store's endpoint is `MCP_HOST_OAUTH_S3_ENDPOINT` for an S3-compatible server,
 * falling back to the payload store's `MCP_HOST_PAYLOAD_S3_ENDPOINT` (the same server, as a rule),
 * unset for AWS; the region is `AWS_REGION`, credentials come from the AWS SDK's default chain.
 */
import { OAuthStoreError } from '../../errors/oauth-store-error';
import { PayloadStoreError } from '../../errors/payload-store-error';
import { checkS3Endpoint, parseS3Url, PAYLOAD_STORE_ENV } from '../../temporal/payload-store/payload-store-setting';
import { OAUTH_STORE_ENV, oauthStorePath } from './token-store-path';

/** The S3 store's own endpoint variable (public interface). */
export const OAUTH_S3_ENDPOINT_ENV = 'MCP_HOST_OAUTH_S3_ENDPOINT';

/** The S3 token store's bucket, prefix, region and endpoint. */
export interface S3OAuthStoreSetting {
  kind: 's3';
  bucket: string;
  /** Without leading or trailing `/`; empty for the bucket's root. Objects go under `<prefix>/oauth/`. */
  prefix: string;
  region: string | undefined;
  endpoint: string | undefined;
}

/** The file store, or the S3 store. */
export type OAuthStoreSetting = { kind: 'file'; path: string } | S3OAuthStoreSetting;

const nonEmpty = (value: string | undefined): string | undefined => (value !== undefined && value.trim() !== '' ? value.trim() : undefined);

/**
 * Reads the setting from `env`.
 * @throws OAuthStoreError (`mcp.oauth_store_invalid`) for an `s3://` value or endpoint that cannot be used, naming the variable.
 */
export function oauthStoreSetting(env: Readonly<Record<string, string | undefined>> = process.env): OAuthStoreSetting {
  const named = nonEmpty(env[OAUTH_STORE_ENV]);
  if (named === undefined || !named.startsWith('s3:')) return { kind: 'file', path: oauthStorePath(env) };
  const ownEndpoint = nonEmpty(env[OAUTH_S3_ENDPOINT_ENV]);
  const endpoint = ownEndpoint ?? nonEmpty(env[PAYLOAD_STORE_ENV.s3Endpoint]);
  try {
    const { bucket, prefix } = parseS3Url(named, OAUTH_STORE_ENV, 'or a file path for the file store');
    if (endpoint !== undefined) checkS3Endpoint(endpoint, ownEndpoint !== undefined ? OAUTH_S3_ENDPOINT_ENV : PAYLOAD_STORE_ENV.s3Endpoint);
    return { kind: 's3', bucket, prefix, region: nonEmpty(env[PAYLOAD_STORE_ENV.region]), endpoint };
  } catch (err) {
    if (err instanceof PayloadStoreError) throw new OAuthStoreError(err.message, 'mcp.oauth_store_invalid');
    throw err;
  }
}

/** `s3://bucket/prefix`, as the setting is written. */
export function s3OAuthStoreUrl(setting: S3OAuthStoreSetting): string {
  return `s3://${setting.bucket}${setting.prefix === '' ? '' : `/${setting.prefix}`}`;
}
