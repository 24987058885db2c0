/**
 * The OAuth token store the environment names (oauth-store-setting.ts): the file store, or the S3
 * store with the payload encryption's keyring. One store object per setting in a process, so the
 * connections of one worker share one S3 client.
 */
import { createHash } from 'node:crypto';
import { encryptionKeyringFromEnv } from '../../temporal/encryption-keys';
import { EncryptionError } from '../../errors/encryption-error';
import { OAuthStoreError } from '../../errors/oauth-store-error';
import type { OAuthStore } from './oauth-store';
import { oauthStoreSetting } from './oauth-store-setting';
import { S3OAuthStore } from './s3-token-store';
import { OAuthTokenStore } from './token-store';

const stores = new Map<string, OAuthStore>();

/**
 * The store for `env`.
 * @throws OAuthStoreError (`mcp.oauth_store_invalid`): an `s3://` setting that cannot be used, or the S3 store without a usable `MCP_HOST_ENCRYPTION_KEY`.
 */
export function oauthStoreFromEnv(env: NodeJS.ProcessEnv = process.env): OAuthStore {
  const setting = oauthStoreSetting(env);
  if (setting.kind === 'file') return new OAuthTokenStore(setting.path);
  let keyring;
  try {
    keyring = encryptionKeyringFromEnv(env);
  } catch (err) {
    if (err instanceof EncryptionError) throw new OAuthStoreError(`the S3 OAuth token store cannot use the payload key: ${err.message}`, 'mcp.oauth_store_invalid');
    throw err;
  }
  // The keys enter the cache's key only as a digest.
  const keys = createHash('sha256');
  for (const [id, key] of keyring.keys) keys.update(id).update('\0').update(key);
  const cacheKey = JSON.stringify([setting, keyring.current?.id, keys.digest('hex')]);
  let store = stores.get(cacheKey);
  if (store === undefined) {
    store = new S3OAuthStore(setting, keyring);
    stores.set(cacheKey, store);
  }
  return store;
}
