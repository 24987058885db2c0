/**
 * The payload encryption's keys, read from the environment of a worker or client:
 *
 * - `MCP_HOST_ENCRYPTION_KEY`: the current key, 32 random bytes in base64 (`openssl rand -base64 32`).
 *   New payloads are encrypted with it. Unset: new payloads are not encrypted.
 * - `MCP_HOST_ENCRYPTION_KEY_ID`: its id, written into every payload it encrypts (letters, digits,
 *   `.`, `_`, `-`; at most 64). Unset: derived from the key (`k-` and 16 hex digits of its SHA-256).
 * - `MCP_HOST_ENCRYPTION_OLD_KEYS`: keys kept for decryption only, `id:base64,id:base64…`, so
 *   that histories written before a rotation stay readable.
 *
 * Every malformed setting is refused with an {@link EncryptionError} naming the variable, never
 * quoting a key. Empty variables count as unset.
 */
import { createHash } from 'node:crypto';
import { EncryptionError } from '../errors/encryption-error';

/** The variables' names (public interface). */
export const ENCRYPTION_ENV = {
  key: 'MCP_HOST_ENCRYPTION_KEY',
  keyId: 'MCP_HOST_ENCRYPTION_KEY_ID',
  oldKeys: 'MCP_HOST_ENCRYPTION_OLD_KEYS',
} as const;

/** AES-256: a key is 32 bytes. */
export const KEY_BYTES = 32;

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** One key and its id. */
export interface EncryptionKey {
  readonly id: string;
  readonly key: Buffer;
}

/** The keys of one process: the one new payloads get (if any) and every key that may decrypt. */
export interface EncryptionKeyring {
  /** Encrypts new payloads; undefined: new payloads stay as they are (old ones are still decrypted). */
  readonly current: EncryptionKey | undefined;
  /** Every key by id, the current one included. */
  readonly keys: ReadonlyMap<string, Buffer>;
}

/** Decodes a base64 key (standard or URL-safe alphabet) of exactly 32 bytes. */
function parseKey(raw: string, where: string): Buffer {
  const text = raw.trim();
  if (!BASE64.test(text)) throw new EncryptionError(`${where} is not base64 (make one with: openssl rand -base64 32)`, 'encryption.bad_key');
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new EncryptionError(`${where} must be ${KEY_BYTES} bytes in base64, it is ${key.length} bytes (make one with: openssl rand -base64 32)`, 'encryption.bad_key');
  }
  return key;
}

function checkKeyId(id: string, where: string): string {
  if (!KEY_ID.test(id)) throw new EncryptionError(`${where}: a key id is 1–64 letters, digits, ".", "_" or "-", got ${JSON.stringify(id.slice(0, 80))}`, 'encryption.bad_key');
  return id;
}

/** The id a key gets when none is given: a fingerprint that reveals nothing of the key. */
export function derivedKeyId(key: Buffer): string {
  return `k-${createHash('sha256').update('durable-mcp-host key id\0').update(key).digest('hex').slice(0, 16)}`;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * The keyring the environment describes (empty when no variable is set).
 * @throws EncryptionError (`encryption.bad_key`) for any malformed variable.
 */
export function encryptionKeyringFromEnv(env: NodeJS.ProcessEnv = process.env): EncryptionKeyring {
  const keys = new Map<string, Buffer>();
  let current: EncryptionKey | undefined;
  const rawKey = env[ENCRYPTION_ENV.key];
  const rawId = env[ENCRYPTION_ENV.keyId];
  if (present(rawKey)) {
    const key = parseKey(rawKey, ENCRYPTION_ENV.key);
    const id = present(rawId) ? checkKeyId(rawId.trim(), ENCRYPTION_ENV.keyId) : derivedKeyId(key);
    current = { id, key };
    keys.set(id, key);
  } else if (present(rawId)) {
    throw new EncryptionError(`${ENCRYPTION_ENV.keyId} is set but ${ENCRYPTION_ENV.key} is not`, 'encryption.bad_key');
  }
  const rawOld = env[ENCRYPTION_ENV.oldKeys];
  if (present(rawOld)) {
    for (const [index, entry] of rawOld.split(',').entries()) {
      const item = entry.trim();
      if (item === '') continue;
      const where = `${ENCRYPTION_ENV.oldKeys} (entry ${index + 1})`;
      const colon = item.indexOf(':');
      if (colon < 0) throw new EncryptionError(`${where} must be id:base64-key`, 'encryption.bad_key');
      const id = checkKeyId(item.slice(0, colon).trim(), where);
      const key = parseKey(item.slice(colon + 1), `${where}, key "${id}"`);
      const known = keys.get(id);
      if (known !== undefined && !known.equals(key)) {
        throw new EncryptionError(`${where}: key id "${id}" is given twice with different keys`, 'encryption.bad_key');
      }
      keys.set(id, key);
    }
  }
  return { current, keys };
}

/** One line for a start-up log: whether new payloads are encrypted, with which key id (never a key). */
export function describeKeyring(keyring: EncryptionKeyring): string {
  const others = [...keyring.keys.keys()].filter((id) => id !== keyring.current?.id);
  const old = others.length > 0 ? `; old keys for decryption: ${others.join(', ')}` : '';
  return keyring.current ? `payload encryption on, key id "${keyring.current.id}"${old}` : `payload encryption off${old}`;
}
