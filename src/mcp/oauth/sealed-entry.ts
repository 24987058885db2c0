/**
 * How the S3 OAuth token store keeps one server's entry at rest: JSON sealed with AES-256-GCM under
 * the project's payload key (`MCP_HOST_ENCRYPTION_KEY`, src/temporal/encryption-keys.ts), in a
 * small JSON envelope that names the key id, never the key, so an entry written before a key
 * rotation opens with the old key (`MCP_HOST_ENCRYPTION_OLD_KEYS`) and is written again with the
 * current one at its next update. The object's key is authenticated with the ciphertext: an entry
 * copied into another server's object does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { OAuthStoreError } from '../../errors/oauth-store-error';
import { ENCRYPTION_ENV, type EncryptionKey, type EncryptionKeyring } from '../../temporal/encryption-keys';
import type { StoredServerAuth } from './oauth-store';

/** The envelope's `format`: what wrote the object. */
export const SEALED_ENTRY_FORMAT = 'durable-mcp-host/oauth-entry';
const CIPHER = 'AES-256-GCM';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The object as stored: everything but `sealed` is readable without the key, and none of it is secret. */
interface SealedEnvelope {
  format: typeof SEALED_ENTRY_FORMAT;
  version: 1;
  cipher: typeof CIPHER;
  keyId: string;
  /** base64 of IV (12 bytes) | ciphertext | GCM tag (16 bytes). */
  sealed: string;
}

function additionalData(keyId: string, objectKey: string): Buffer {
  return Buffer.from(`${SEALED_ENTRY_FORMAT} ${CIPHER} ${keyId} ${objectKey}`, 'utf8');
}

/** The entry for `objectKey`, sealed with `key`: the object's body. */
export function sealEntry(entry: StoredServerAuth, key: EncryptionKey, objectKey: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(key.id, objectKey));
  const sealed = Buffer.concat([iv, cipher.update(JSON.stringify(entry), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const envelope: SealedEnvelope = { format: SEALED_ENTRY_FORMAT, version: 1, cipher: CIPHER, keyId: key.id, sealed: sealed.toString('base64') };
  return `${JSON.stringify(envelope)}\n`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The entry an object's body holds.
 * @param where The object, for messages (`s3://bucket/key`).
 * @throws OAuthStoreError (`mcp.oauth_store_invalid`): not an envelope, a key id without a key here, or one that does not open.
 */
export function openEntry(body: string, keyring: EncryptionKeyring, objectKey: string, where: string): StoredServerAuth {
  const invalid = (why: string): OAuthStoreError => new OAuthStoreError(`the OAuth token store object ${where} ${why}; run \`mcp-host login\` again to replace it`, 'mcp.oauth_store_invalid');
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    // The body is never quoted: it may hold a token in plain text if something else wrote it.
    throw invalid('is not JSON');
  }
  if (!isRecord(envelope) || envelope.format !== SEALED_ENTRY_FORMAT || envelope.cipher !== CIPHER || typeof envelope.keyId !== 'string' || typeof envelope.sealed !== 'string') {
    throw invalid(`is not a sealed entry (${SEALED_ENTRY_FORMAT}, ${CIPHER})`);
  }
  const key = keyring.keys.get(envelope.keyId);
  if (key === undefined) {
    throw new OAuthStoreError(
      `the OAuth token store object ${where} is encrypted with key id "${envelope.keyId.slice(0, 64)}", which this process does not have (${ENCRYPTION_ENV.key}, or ${ENCRYPTION_ENV.oldKeys} after a rotation)`,
      'mcp.oauth_store_invalid',
    );
  }
  const bytes = Buffer.from(envelope.sealed, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw invalid('is too short to be sealed');
  let plain: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(envelope.keyId, objectKey));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw invalid(`does not decrypt with the key of id "${envelope.keyId}" (another key under that id, or changed bytes)`);
  }
  let entry: unknown;
  try {
    entry = JSON.parse(plain);
  } catch {
    throw invalid('decrypts to something that is not JSON');
  }
  if (!isRecord(entry) || typeof entry.url !== 'string') throw invalid('decrypts to something that is not a server entry');
  return entry as unknown as StoredServerAuth;
}
