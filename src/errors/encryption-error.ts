/**
 * The payload encryption's errors: a key setting that cannot be used (reported once, at start-up,
 * before anything connects) and a payload that cannot be decrypted. Their messages name variables
 * and key ids, never a key.
 */

/** What went wrong, as a stable code. */
export type EncryptionErrorCode =
  /** A key variable is malformed: not base64, not 32 bytes, a bad key id, a key id given twice. */
  | 'encryption.bad_key'
  /** A payload was encrypted with a key id this process has no key for. */
  | 'encryption.unknown_key_id'
  /** The key for the payload's key id does not open it: the wrong key under that id, or changed bytes. */
  | 'encryption.decrypt_failed'
  /** An encrypted payload too short or without a key id: not something this codec wrote. */
  | 'encryption.malformed_payload';

/** A typed error of the payload encryption. */
export class EncryptionError extends Error {
  override readonly name = 'EncryptionError';

  constructor(
    message: string,
    readonly code: EncryptionErrorCode,
  ) {
    super(message);
  }
}
