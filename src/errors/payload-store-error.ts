/**
 * The external payload store's errors (src/temporal/payload-store/): a store setting that cannot
 * be used (reported once, at start-up, before anything connects), a payload the store does not
 * hold or gives back changed, and a store that cannot be reached. Their messages name variables,
 * buckets and keys, never a credential.
 */

/** What went wrong, as a stable code. */
export type PayloadStoreErrorCode =
  /** `MCP_HOST_PAYLOAD_STORE` or `MCP_HOST_PAYLOAD_S3_ENDPOINT` is malformed (not retryable: fix the setting). */
  | 'payload_store.bad_setting'
  /** A reference names the S3 store, and this process has none configured (not retryable: set it). */
  | 'payload_store.not_configured'
  /** The store has no payload under the reference's key: never written there, or expired by a lifecycle rule. */
  | 'payload_store.missing'
  /** The bytes read back do not match the reference's hash. */
  | 'payload_store.corrupt'
  /** The store could not be reached or refused the request (network, credentials, permissions). */
  | 'payload_store.unavailable';

/** A typed error of the external payload store. */
export class PayloadStoreError extends Error {
  override readonly name = 'PayloadStoreError';

  constructor(
    message: string,
    readonly code: PayloadStoreErrorCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
