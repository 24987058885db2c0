/**
 * The encryption codec of this process's environment (`MCP_HOST_ENCRYPTION_*`, see
 * encryption-keys.ts), as the shared data converter uses it: the variables are read when a payload
 * is encoded or decoded, and the keyring is kept while they stay the same, so a process (or a test)
 * that sets them before its first Temporal call gets them, and every worker and client built from
 * the one `dataConverter` agrees. With no variable set it passes payloads unchanged and refuses to
 * decode an encrypted one, naming the key id it would need.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import { EncryptionCodec } from './encryption-codec';
import { ENCRYPTION_ENV, encryptionKeyringFromEnv, type EncryptionKeyring } from './encryption-keys';

let cached: { signature: string; keyring: EncryptionKeyring; codec: EncryptionCodec } | undefined;

function fromEnvironment(env: NodeJS.ProcessEnv): { keyring: EncryptionKeyring; codec: EncryptionCodec } {
  const signature = JSON.stringify([env[ENCRYPTION_ENV.key], env[ENCRYPTION_ENV.keyId], env[ENCRYPTION_ENV.oldKeys]]);
  if (cached?.signature !== signature) {
    const keyring = encryptionKeyringFromEnv(env);
    cached = { signature, keyring, codec: new EncryptionCodec(keyring) };
  }
  return cached;
}

/**
 * The keyring of the environment, checked. Workers and clients call this as they start, so a
 * malformed key is one clear error before anything connects rather than a failure of each payload.
 * @throws EncryptionError (`encryption.bad_key`).
 */
export function environmentKeyring(env: NodeJS.ProcessEnv = process.env): EncryptionKeyring {
  return fromEnvironment(env).keyring;
}

/** The codec that follows the environment's keys (see the module comment). */
export class EnvironmentEncryptionCodec implements PayloadCodec {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  encode(payloads: Payload[]): Promise<Payload[]> {
    try {
      return fromEnvironment(this.env).codec.encode(payloads);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    try {
      return fromEnvironment(this.env).codec.decode(payloads);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
