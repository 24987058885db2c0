/**
 * The OAuth token store's errors (src/mcp/oauth): a store that cannot be reached (retryable) and a
 * store that cannot be used as set up, or whose object does not open (not retryable). Their
 * messages name variables, buckets, keys and key ids, never a token or an encryption key.
 */
import { HostError } from './host-error';

/** The two failure types of the token store. */
export type OAuthStoreFailureType = 'mcp.oauth_store_unavailable' | 'mcp.oauth_store_invalid';

/** A typed error of the OAuth token store: `mcp.oauth_store_unavailable` is retried, `mcp.oauth_store_invalid` is not. */
export class OAuthStoreError extends HostError {
  constructor(message: string, type: OAuthStoreFailureType, options?: { cause?: unknown }) {
    super(message, type, type === 'mcp.oauth_store_unavailable');
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
