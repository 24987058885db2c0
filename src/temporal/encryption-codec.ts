/**
 * A payload codec that encrypts every payload with AES-256-GCM (Node's crypto): the whole original
 * payload (its metadata and data) is encrypted under a random 12-byte IV and sealed with GCM's
 * 16-byte tag, so neither the content nor its encoding can be read or changed unnoticed without
 * the key. The encrypted payload's metadata holds the encoding `binary/encrypted`, the cipher and
 * the key's id, never the key: a reader finds the key by id, which is how a key is rotated (new
 * payloads get the current key, old ones are opened with the key their id names).
 *
 * In this project's data converter it runs after the gzip codec (compress, then encrypt: ciphertext
 * does not compress), and before the external payload store, which therefore holds ciphertext too.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { EncryptionError } from '../errors/encryption-error';
import type { EncryptionKeyring } from './encryption-keys';

/** The `encoding` metadata of an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** The metadata key of the id of the key a payload was encrypted with. */
export const KEY_ID_METADATA = 'encryption-key-id';
/** The metadata key naming the cipher. */
export const CIPHER_METADATA = 'encryption-cipher';
/** The only cipher written. */
export const CIPHER = 'AES-256-GCM';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Authenticated with the ciphertext: a payload moved under another key id does not open. */
function additionalData(keyId: string): Buffer {
  return Buffer.from(`durable-mcp-host ${CIPHER} ${keyId}`, 'utf8');
}

const metadataText = (payload: Payload, key: string): string | undefined => {
  const value = payload.metadata?.[key];
  return value ? decoder.decode(value) : undefined;
};

/** True for a payload this codec wrote. */
export function isEncryptedPayload(payload: Payload): boolean {
  return metadataText(payload, 'encoding') === ENCRYPTED_ENCODING;
}

/** Encrypts with the keyring's current key (none: payloads pass unchanged); decrypts with the key the payload names. */
export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly keyring: EncryptionKeyring) {}

  encode(payloads: Payload[]): Promise<Payload[]> {
    const current = this.keyring.current;
    if (!current) return Promise.resolve(payloads);
    return Promise.resolve(
      payloads.map((payload): Payload => {
        const plain = temporal.api.common.v1.Payload.encode(payload).finish();
        const iv = randomBytes(IV_BYTES);
        const cipher = createCipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
        cipher.setAAD(additionalData(current.id));
        const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
        return {
          metadata: {
            encoding: encoder.encode(ENCRYPTED_ENCODING),
            [CIPHER_METADATA]: encoder.encode(CIPHER),
            [KEY_ID_METADATA]: encoder.encode(current.id),
          },
          data: new Uint8Array(sealed),
        };
      }),
    );
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    try {
      return Promise.resolve(payloads.map((payload) => (isEncryptedPayload(payload) ? this.decrypt(payload) : payload)));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private decrypt(payload: Payload): Payload {
    const keyId = metadataText(payload, KEY_ID_METADATA);
    const data = payload.data;
    if (keyId === undefined || !data || data.length < IV_BYTES + TAG_BYTES) {
      throw new EncryptionError('an encrypted payload without a key id or too short to hold IV and tag: not written by this codec', 'encryption.malformed_payload');
    }
    const cipherName = metadataText(payload, CIPHER_METADATA) ?? CIPHER;
    if (cipherName !== CIPHER) throw new EncryptionError(`an encrypted payload with cipher "${cipherName}": only ${CIPHER} is known`, 'encryption.malformed_payload');
    const key = this.keyring.keys.get(keyId);
    if (!key) {
      throw new EncryptionError(
        `a payload is encrypted with key id "${keyId}", which this process has no key for (set MCP_HOST_ENCRYPTION_KEY with MCP_HOST_ENCRYPTION_KEY_ID, or keep the key in MCP_HOST_ENCRYPTION_OLD_KEYS)`,
        'encryption.unknown_key_id',
      );
    }
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(keyId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new EncryptionError(
        `a payload encrypted with key id "${keyId}" does not decrypt: the key under that id is not the one it was encrypted with, or the payload was changed`,
        'encryption.decrypt_failed',
      );
    }
    return temporal.api.common.v1.Payload.decode(new Uint8Array(plain));
  }
}
