import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StorageDriverClaim, type Payload, type StorageDriver } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

/**
 * A Temporal external-storage driver (`@temporalio/common` 1.24, experimental) that keeps each
 * large payload in a file under `dir`, named by the SHA-256 of its bytes: content-addressed, so a
 * payload stored twice (a conversation's state carried from run to run) is one file, files are
 * written once and never changed, and any process that reaches the same directory (the worker, the
 * CLI, another worker on a shared file system) can read what another wrote. The claim holds the
 * hash only; the retrieved bytes are checked against it.
 */
export class LocalFileDriver implements StorageDriver {
  readonly name = 'mcp-host-local-file';
  readonly type = 'mcp-host.local-file';

  constructor(readonly dir: string) {}

  /** Where the payload with this hash lives: two levels, so no directory holds too many files. */
  private fileOf(sha256: string): string {
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }

  async store(_context: unknown, payloads: Payload[]): Promise<StorageDriverClaim[]> {
    return Promise.all(
      payloads.map(async (payload) => {
        const bytes = temporal.api.common.v1.Payload.encode(payload).finish();
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const file = this.fileOf(sha256);
        const present = await stat(file).then((s) => s.size === bytes.length, () => false);
        if (!present) {
          await mkdir(path.dirname(file), { recursive: true });
          // Written aside, then renamed: a reader never sees half a file.
          const partial = `${file}.${randomUUID()}.partial`;
          await writeFile(partial, bytes);
          await rename(partial, file);
        }
        return new StorageDriverClaim({ sha256, size: String(bytes.length) });
      }),
    );
  }

  async retrieve(_context: unknown, claims: StorageDriverClaim[]): Promise<Payload[]> {
    return Promise.all(
      claims.map(async (claim) => {
        const sha256 = claim.claimData.sha256 ?? '';
        if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`payload store: a claim without a valid sha256 (${JSON.stringify(claim.claimData)})`);
        const file = this.fileOf(sha256);
        const bytes = await readFile(file).catch((error: unknown) => {
          throw new Error(`payload store: payload ${sha256} is not in ${this.dir} (${error instanceof Error ? error.message : String(error)}); every worker and client must share the store (MCP_HOST_PAYLOAD_DIR)`);
        });
        if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw new Error(`payload store: ${file} does not match its hash`);
        return temporal.api.common.v1.Payload.decode(new Uint8Array(bytes));
      }),
    );
  }
}
