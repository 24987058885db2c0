/**
 * The worker-side OAuth token store: one JSON file (mode 0600, in a 0700 directory) holding, per
 * configured MCP server, the tokens `mcp-host login` obtained and the client registration, each
 * stamped with the issuer of the authorization server it belongs to (SEP-2352). Workers read it on
 * every request and write refreshed tokens back, so many workers (processes, or machines on a
 * shared file system) can share one login.
 *
 * Writes are read-modify-write under a lock file (`<file>.lock`, created exclusively; one older than
 * {@link STALE_LOCK_MS} is taken as left by a dead process) and land by atomic rename, so a reader
 * never sees half a file and two writers never lose each other's entries. A refresh holds a second
 * lock file per server (`<file>.refresh-<hash of the name>.lock`, the {@link OAuthStore} refresh
 * lease) from reading the refresh token to writing the new tokens, across the token request, so
 * two processes never spend one rotating refresh token twice.
 *
 * The values in here are secrets: nothing read from this file goes into a log line, an error
 * message, or any workflow or activity payload.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OAuthStoreError } from '../../errors/oauth-store-error';
import { REFRESH_LEASE_MS, REFRESH_LEASE_WAIT_MS, type EntryChange, type OAuthStore, type StoredServerAuth } from './oauth-store';

export type { StoredServerAuth } from './oauth-store';

/** A lock file older than this is left over from a process that died while holding it. */
const STALE_LOCK_MS = 30_000;
/** How long a writer waits for the lock before giving up. */
const LOCK_WAIT_MS = 15_000;
const LOCK_POLL_MS = 25;

interface StoreFile {
  version: 1;
  servers: Record<string, StoredServerAuth>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isErrno(err: unknown, code: string): boolean {
  return isRecord(err) && err.code === code;
}

/** The token store file at `path` (see the module comment). */
export class OAuthTokenStore implements OAuthStore {
  constructor(readonly path: string) {}

  get location(): string {
    return this.path;
  }

  /** The entry of server `name` for `url`, or undefined (none, or one saved for another URL). */
  async get(name: string, url: string): Promise<StoredServerAuth | undefined> {
    const entry = (await this.readFile()).servers[name];
    return entry !== undefined && entry.url === url ? entry : undefined;
  }

  /**
   * Changes server `name`'s entry under the lock: `change` gets the current entry for `url` (a fresh
   * one when there is none or it belongs to another URL) and returns the new one, or undefined to
   * delete it.
   */
  async update(name: string, url: string, change: EntryChange): Promise<void> {
    await this.locked(`${this.path}.lock`, STALE_LOCK_MS, LOCK_WAIT_MS, async () => {
      const file = await this.readFile();
      const current = file.servers[name];
      const next = change(current !== undefined && current.url === url ? { ...current } : { url });
      if (next === undefined) delete file.servers[name];
      else file.servers[name] = { ...next, url };
      await this.writeFile(file);
    });
  }

  /**
   * Runs `body` holding server `name`'s refresh lock file (see {@link OAuthStore.exclusive}): apart
   * from the file's lock, so that `get` and `update` work inside it.
   */
  exclusive<T>(name: string, body: () => Promise<T>): Promise<T> {
    const id = createHash('sha256').update(name).digest('hex').slice(0, 16);
    return this.locked(`${this.path}.refresh-${id}.lock`, REFRESH_LEASE_MS, REFRESH_LEASE_WAIT_MS, body);
  }

  private async readFile(): Promise<StoreFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return { version: 1, servers: {} };
      throw new Error(`cannot read the OAuth token store ${this.path}: ${isRecord(err) && typeof err.code === 'string' ? err.code : 'error'}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // The text is never quoted: it holds tokens.
      throw new Error(`the OAuth token store ${this.path} is not valid JSON; delete it and run \`mcp-host login\` again`);
    }
    if (!isRecord(json) || !isRecord(json.servers)) {
      throw new Error(`the OAuth token store ${this.path} is not a token store ({"version":1,"servers":{…}})`);
    }
    return { version: 1, servers: json.servers as Record<string, StoredServerAuth> };
  }

  private async writeFile(file: StoreFile): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      // The mode given to writeFile is masked by the umask; 0600 is meant whatever the umask.
      await chmod(temp, 0o600);
      await rename(temp, this.path);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  }

  private async locked<T>(lock: string, staleMs: number, waitMs: number, body: () => Promise<T>): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        const handle = await open(lock, 'wx', 0o600);
        await handle.writeFile(String(process.pid));
        await handle.close();
        break;
      } catch (err) {
        if (!isErrno(err, 'EEXIST')) throw err;
        const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
        if (age > staleMs) {
          await unlink(lock).catch(() => undefined);
          continue;
        }
        if (Date.now() > deadline) throw new OAuthStoreError(`the OAuth token store ${this.path} stayed locked (${lock}) for ${waitMs} ms`, 'mcp.oauth_store_unavailable');
        await sleep(LOCK_POLL_MS);
      }
    }
    try {
      return await body();
    } finally {
      await unlink(lock).catch(() => undefined);
    }
  }
}
